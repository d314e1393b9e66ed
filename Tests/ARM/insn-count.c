/*
 * insn-count: a QEMU TCG plugin that counts the guest instructions a
 * program executes and prints "insns: N" to stderr when it exits
 * (Scripts/arm-insns.sh). Each translated block adds its instruction count
 * to one counter inline, in the generated code, as it runs: exact for a
 * single-threaded program, and cheap.
 *
 * With the argument blocks=FILE (-plugin insn-count.so,blocks=FILE) it also
 * counts per translated block and writes "ADDRESS COUNT" lines (hex guest
 * address of the block, instructions it executed) to FILE at exit, for
 * Scripts/arm-insns.sh --profile to add up per function.
 *
 * Debian's qemu-user accepts -plugin but ships no plugin and no
 * qemu-plugin.h: the declarations used are in qemu-plugin.h here.
 */
#include <stdio.h>
#include <string.h>

#include "qemu-plugin.h"

EXPORT int qemu_plugin_version = 1;

static uint64_t insns;

/* Per block (blocks=FILE): guest addresses and their counters, looked up
 * linearly at translation only (a few thousand blocks). Blocks past the
 * table's end count in the total alone. */
#define MAX_BLOCKS 65536
static const char *blocks_path;
static uint64_t block_address[MAX_BLOCKS], block_insns[MAX_BLOCKS];
static int block_count;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
    if (blocks_path == NULL) {
        return;
    }
    uint64_t address = qemu_plugin_tb_vaddr(tb);
    int i = 0;
    while (i < block_count && block_address[i] != address) {
        i++;
    }
    if (i == block_count) {
        if (block_count == MAX_BLOCKS) {
            return;
        }
        block_address[block_count++] = address;
    }
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &block_insns[i], n);
}

static void exited(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    fprintf(stderr, "insns: %llu\n", (unsigned long long)insns);
    if (blocks_path == NULL) {
        return;
    }
    FILE *f = fopen(blocks_path, "w");
    if (f == NULL) {
        fprintf(stderr, "insn-count: cannot write %s\n", blocks_path);
        return;
    }
    for (int i = 0; i < block_count; i++) {
        if (block_insns[i] > 0) {
            fprintf(f, "%016llx %llu\n", (unsigned long long)block_address[i],
                    (unsigned long long)block_insns[i]);
        }
    }
    fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc,
                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "blocks=", 7) == 0) {
            blocks_path = argv[i] + 7;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
