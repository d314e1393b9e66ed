#!/usr/bin/env python3
"""fbanim from outside, as a hostile user: random command lines (valid words,
boundary values, garbage) with random board files (CRLF, CR, binary,
repeated keys), FIFOs, directories and devices where files are expected.

Every run must end by itself within 8 s or exit 0 within 4 s of SIGTERM; exit
with a documented status (cli.md: 0 64 66 69 73 74 77), never by a signal;
on failure print one short error (at most 2000 bytes) with no control
characters; and leave nothing in its working directory but the output file
of a successful render.

    Tests/Hostile/cli.py FBANIM_BINARY [CASES] [SEED]

Prints each problem with its command line, then a table of (command, exit
status) counts and `N cases, M problems`; exits 1 when M > 0."""
import os, random, signal, subprocess, sys, tempfile, time, socket, shutil

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 500
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 1
rnd = random.Random(SEED)
OK = {0, 64, 66, 69, 73, 74, 77}

garbage = ["", " ", "-", "--", "\x00", "\r\n", "\x1b[31m", "\ufeff", "é", "𝕏", "1e309", "nan", "-0",
           "inf", "-1", "0", "99999999999999999999", "0x10", "1,5", "\t", "a" * 5000, "../../etc/passwd",
           "/dev/zero", "/dev/urandom", "/proc/self/mem", "/", "%s%n", "'\"", "=", "?", "&"]
def sim():
    w = rnd.choice([1, 2, 7, 64, 160, 320, 333, 800, 0, -5, 100000])
    h = rnd.choice([1, 3, 64, 120, 240, 241, 480, 0, 100000])
    s = f"sim:{w}x{h}"
    if rnd.random() < 0.5:
        s += ":" + rnd.choice(["rgb565", "xrgb8888", "xbgr8888", "argb8888", "bgr565", "rgb888", "rgb555", ""])
    keys = ["clock=virtual"] if rnd.random() < 0.9 else []
    for _ in range(rnd.randint(0, 3)):
        keys.append(rnd.choice(["refresh=", "present_ms=", "clock=", "bogus="]) + rnd.choice(["0", "1", "60", "99", "-3", "1e9", "virtual", "", "x"]))
    if keys: s += "?" + "&".join(keys)
    return s
def value(opt, tmp):
    pools = {
        "--device": lambda: rnd.choice([sim(), sim(), sim(), "/dev/null", "/dev/fb99", "/dev/dri/card9", "term", "drm:nope", "fb:nope", tmp + "/fifo", tmp, "sim:", "/dev/" + "x" * 300]),
        "--fps": lambda: rnd.choice(["1", "30", "60", "240", "241", "0"]),
        "--frames": lambda: rnd.choice(["1", "3", "10", "0", "-1"]),
        "--duration": lambda: rnd.choice(["0.1", "1", "0", "-1"]),
        "--scale": lambda: rnd.choice(["0.5", "1", "2", "64", "65", "0.01"]),
        "--color": lambda: rnd.choice(["ff0000", "#00ff00", "red", "fff", "1234567"]),
        "--background": lambda: rnd.choice(["000000", "#101010", "zz"]),
        "--rotate": lambda: rnd.choice(["0", "90", "180", "270", "45"]),
        "--stats": lambda: rnd.choice(["json", "text", "xml"]),
        "--board": lambda: rnd.choice(["pi-hdmi", "nope", tmp + "/b.conf", tmp + "/b.conf", "/dev/zero", tmp + "/fifo", tmp]),
        "--message": lambda: rnd.choice(["Booting", "é" * 300, "line\nbreak", "\x1b[2J", ""]),
        "--font": lambda: rnd.choice(["/nope.ttf", "/dev/zero", tmp + "/b.conf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]),
        "--text-color": lambda: rnd.choice(["ffffff", "q"]),
        "--size": lambda: rnd.choice(["64x64", "320x240", "0x0", "1x1", "99999x99999", "40000x40000", "10x"]),
        "--time": lambda: rnd.choice(["0", "1.5", "-1", "1e300", "nan"]),
        "--output": lambda: rnd.choice([tmp + "/o.png", tmp + "/o.ppm", tmp + "/o.bmp", "/nonexistent/o.png", tmp + "/ro/o.png", tmp]),
        "--format": lambda: rnd.choice(["rgb565", "rgb888", "xrgb8888", "nv12"]),
        "--progress": lambda: rnd.choice(["0", "0.5", "50", "1", "-1", "2"]),
        "--mode": lambda: rnd.choice(["boot", "shutdown", "update", "x"]),
        "--wait": lambda: rnd.choice(["0", "1", "-1"]),
    }
    if rnd.random() < 0.1:
        return rnd.choice(garbage)
    return pools.get(opt, lambda: rnd.choice(garbage))()

OPTS = ["--device", "--fps", "--frames", "--duration", "--scale", "--color", "--background", "--rotate",
        "--stats", "--board", "--message", "--font", "--text-color", "--size", "--time", "--output",
        "--format", "--progress", "--mode", "--wait", "--help", "--bogus", "-h"]
def argv(tmp):
    cmd = rnd.choice([[], [], [], ["render"], ["render"], ["devices"], ["testpattern"], ["restore-console"], ["help"]])
    args = list(cmd)
    if cmd != ["devices"] and rnd.random() < 0.9:
        args.append(rnd.choice(["ring", "radar", "spinner", "orbit", "testpattern", "rnig", ""] + garbage[:3]))
    for _ in range(rnd.randint(0, 6)):
        o = rnd.choice(OPTS)
        args.append(o)
        if o not in ("--help", "-h") and rnd.random() < 0.95:
            args.append(value(o, tmp))
    rnd.shuffle(args) if rnd.random() < 0.2 else None
    # keep plays bounded most of the time
    if not cmd and rnd.random() < 0.8 and "--frames" not in args:
        args += ["--frames", "5"]
    return args

def board_text():
    lines = [rnd.choice(["fbanim-board 1", "fbanim-board 2", "", "# c"])]
    keys = ["device", "fps", "scale", "rotate", "color", "background", "format", "size", "loader", "initramfs-modules", "initramfs-firmware", "bogus", "fps"]
    for _ in range(rnd.randint(0, 8)):
        k = rnd.choice(keys)
        v = value("--" + k, "/tmp") if k in ("device", "fps", "scale", "rotate", "color", "background", "format", "size") else rnd.choice(["ring", "vc4", "../x", "a.bin", "", "x" * 100] + garbage)
        lines.append(f"{k} = {v}" if rnd.random() < 0.9 else f"{k} {v}")
    sep = rnd.choice(["\n", "\r\n", "\r"])
    return sep.join(lines) + (sep if rnd.random() < 0.8 else "")

def run_one(i):
    tmp = tempfile.mkdtemp(prefix="fbh.")
    os.mkfifo(tmp + "/fifo")
    os.mkdir(tmp + "/ro"); os.chmod(tmp + "/ro", 0o555)
    with open(tmp + "/b.conf", "w", newline="") as f:
        f.write(board_text())
    before = set(os.listdir(tmp))
    args = [a.replace("\x00", "") for a in argv(tmp)]
    env = dict(os.environ, PSPLASH_FIFO_DIR=tmp, FBANIM_STATE_DIR=tmp + "/state", FBANIM_PLYMOUTH_SOCKET=f"fbh-{os.getpid()}-{i}", TERM="dumb")
    p = subprocess.Popen([BIN] + args, cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    problem = None
    try:
        out, err = p.communicate(timeout=8)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=4)
            if p.returncode != 0: problem = f"after SIGTERM exit {p.returncode}"
        except subprocess.TimeoutExpired:
            p.kill(); out, err = p.communicate(); problem = "hang: no exit 4 s after SIGTERM"
    rc = p.returncode
    e = err.decode("utf-8", "replace")
    if problem is None:
        if rc < 0: problem = f"killed by signal {-rc}"
        elif rc not in OK: problem = f"exit {rc}"
        elif rc != 0:
            lines = [l for l in e.split("\n") if l]
            errs = [l for l in lines if l.startswith("Error") or l.startswith("fbanim: error")]
            if len(e) > 2000: problem = f"error of {len(e)} bytes"
            elif any(ord(c) < 32 and c not in "\n" or c == "\x7f" for c in e): problem = "control character in stderr"
            elif not lines: problem = "no error line"
    after = set(os.listdir(tmp)) - {"state"}
    new = after - before
    if rc == 0 and any(a == "render" for a in args) and "--output" in args:
        new -= {"o.png", "o.ppm"}
    if rc != 0: pass
    if new and problem is None:
        problem = f"leftover {sorted(new)}"
    os.chmod(tmp + "/ro", 0o755)
    shutil.rmtree(tmp, ignore_errors=True)
    return args, rc, problem, e

fails = 0
from collections import Counter
codes = Counter()
t0 = time.time()
for i in range(N):
    args, rc, problem, e = run_one(i)
    codes[(args[0] if args and args[0] in ("render","devices","testpattern","restore-console","help") else "play", rc)] += 1
    if problem:
        fails += 1
        print(f"#{i} {problem}: {args!r}\n    stderr: {e[:300]!r}", flush=True)
print(sorted(codes.items()))
print(f"{N} cases, {fails} problems, {time.time()-t0:.0f} s")
sys.exit(1 if fails else 0)
