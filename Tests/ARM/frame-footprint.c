/*
 * frame-footprint: a QEMU TCG plugin that measures how much code a program
 * runs between two sleeps: the distinct translated blocks (basic blocks,
 * about) each wake-up executes, and how many blocks it executes in all
 * (Scripts/frame-footprint.sh). A loader playing on the real clock sleeps
 * once a frame, so these are per frame.
 *
 * Why: in the VM of Tests/VM (QEMU TCG) a frame drawn after a sleep costs
 * 3-11 times the same frame drawn without one (clock=virtual), and the cost
 * follows the code a frame runs (its distinct blocks) more than its
 * instructions. Natively the same holds, less steeply (the orbit's frame
 * takes 5 times as long after a sleep here). This counts it the same way
 * every run, without a VM.
 *
 * A wake-up is counted at each clock_nanosleep or nanosleep system call of
 * an x86-64 guest (numbers 230 and 35). The first `skip` (default
 * 200) are left out: start-up and a first cycle of new shapes. At exit it
 * prints "wakeups: N  blocks/wakeup: X  executions/wakeup: Y" to stderr;
 * with out=FILE it also writes "ADDRESS WAKEUPS EXECUTIONS" lines (hex
 * guest address of a block, the wake-ups in which it ran, the times it
 * ran), to add up per function.
 *
 * The declarations of QEMU's plugin interface are in qemu-plugin.h here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin.h"

EXPORT int qemu_plugin_version = 1;

/* One entry per translation (a block translated again gets another). */
#define MAX_BLOCKS (1 << 20)
static uint64_t block_address[MAX_BLOCKS], block_seen[MAX_BLOCKS], block_wakeups[MAX_BLOCKS],
    block_executions[MAX_BLOCKS];
static size_t block_count;
static uint64_t wakeup = 1, skip = 200, distinct, executions;
static const char *out_path;

static void executed(unsigned int vcpu, void *userdata)
{
    (void)vcpu;
    size_t i = (size_t)userdata;
    if (wakeup <= skip) {
        return;
    }
    executions++;
    block_executions[i]++;
    if (block_seen[i] != wakeup) {
        block_seen[i] = wakeup;
        block_wakeups[i]++;
        distinct++;
    }
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (block_count == MAX_BLOCKS) {
        return;
    }
    block_address[block_count] = qemu_plugin_tb_vaddr(tb);
    qemu_plugin_register_vcpu_tb_exec_cb(tb, executed, QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)block_count);
    block_count++;
}

static void syscall_entered(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
                            uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                            uint64_t a7, uint64_t a8)
{
    (void)id, (void)vcpu, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7,
        (void)a8;
    if (num == 230 || num == 35) {
        wakeup++;
    }
}

static void exited(qemu_plugin_id_t id, void *userdata)
{
    (void)id, (void)userdata;
    uint64_t counted = wakeup > skip ? wakeup - skip : 0;
    double n = counted > 0 ? (double)counted : 1;
    fprintf(stderr, "wakeups: %llu  blocks/wakeup: %.0f  executions/wakeup: %.0f\n",
            (unsigned long long)counted, distinct / n, executions / n);
    if (out_path == NULL) {
        return;
    }
    FILE *f = fopen(out_path, "w");
    if (f == NULL) {
        fprintf(stderr, "frame-footprint: cannot write %s\n", out_path);
        return;
    }
    for (size_t i = 0; i < block_count; i++) {
        if (block_wakeups[i] > 0) {
            fprintf(f, "%016llx %llu %llu\n", (unsigned long long)block_address[i],
                    (unsigned long long)block_wakeups[i], (unsigned long long)block_executions[i]);
        }
    }
    fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc,
                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            out_path = argv[i] + 4;
        } else if (strncmp(argv[i], "skip=", 5) == 0) {
            skip = strtoull(argv[i] + 5, NULL, 10);
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_vcpu_syscall_cb(id, syscall_entered);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
