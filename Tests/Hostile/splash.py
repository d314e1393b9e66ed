#!/usr/bin/env python3
"""`fbanim splash` under garbage: its psplash FIFO and Plymouth socket fed
random bytes and psplash/Plymouth-shaped messages, with random `fbanim ctl`
commands between (progress, message, deactivate, ...), on simulated
displays. The splash must keep answering `ctl ping` (unless the garbage
held a quit: then it must have exited 0), exit 0 on SIGTERM within 6 s, and
leave nothing in its FIFO folder. `ctl` must exit 0, 64 or 69 while the
splash runs.

    Tests/Hostile/splash.py FBANIM_BINARY [RUNS] [SEED]

Prints each problem, then `N splash runs, M problems`; exits 1 when M > 0."""
import os, random, signal, socket, subprocess, sys, tempfile, time, shutil
BIN = sys.argv[1]; N = int(sys.argv[2]); rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
fails = 0
def garbage():
    k = rnd.random()
    if k < 0.3: return bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 300)))
    if k < 0.6: return rnd.choice([b"PROGRESS ", b"MSG ", b"QUIT", b"PROGRESS 50", b"MSG hi\x1b[2J", b"PROGRESS -1e309", b"PROGRESS nan", b"MSG " + b"\xff" * 500]) + rnd.choice([b"\0", b"\n", b""])
    return b"M" + bytes([rnd.randint(0, 255)]) + bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 40)))
for i in range(N):
    tmp = tempfile.mkdtemp(prefix="fbs.")
    sock = f"fbs-{os.getpid()}-{i}"
    env = dict(os.environ, PSPLASH_FIFO_DIR=tmp, FBANIM_STATE_DIR=tmp + "/state", FBANIM_PLYMOUTH_SOCKET=sock, NOTIFY_SOCKET="")
    dev = rnd.choice(["sim:320x240?clock=virtual", "sim:160x120:rgb565", "sim:64x64?present_ms=50"])
    p = subprocess.Popen([BIN, "splash", "--device", dev] + rnd.choice([[], ["ring"], ["spinner"], ["--mode", "update"]]), cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    problem = None
    deadline = time.time() + 5
    while time.time() < deadline and not os.path.exists(tmp + "/psplash_fifo"): time.sleep(0.05)
    ctl = lambda *a: subprocess.run([BIN, "ctl"] + list(a), env=env, capture_output=True, timeout=10)
    quit_sent = False
    for j in range(rnd.randint(1, 30)):
        k = rnd.random()
        try:
            if k < 0.4 and os.path.exists(tmp + "/psplash_fifo"):
                fd = os.open(tmp + "/psplash_fifo", os.O_WRONLY | os.O_NONBLOCK)
                g = garbage(); quit_sent |= g.startswith(b"QUIT")
                try: os.write(fd, g)
                finally: os.close(fd)
            elif k < 0.7:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(2)
                s.connect("\0" + sock); s.sendall(garbage())
                if rnd.random() < 0.5:
                    try: s.recv(100)
                    except Exception: pass
                s.close()
            else:
                a = rnd.choice([["progress", rnd.choice(["50", "-3", "1e400", "x", ""])], ["message", rnd.choice(["hello", "é" * 400, "\x1b[31m", ""])], ["hide-message"], ["ping"], ["deactivate"], ["reactivate"], ["bogus"]])
                r = ctl(*a)
                if r.returncode not in (0, 64, 69):
                    try: p.wait(timeout=3)
                    except subprocess.TimeoutExpired: pass
                    if p.poll() is None: problem = problem or f"ctl {a} exit {r.returncode} while running: {r.stderr[:200]!r}"
        except (ConnectionRefusedError, FileNotFoundError, BrokenPipeError, ConnectionResetError, OSError) as e:
            try: p.wait(timeout=3)
            except subprocess.TimeoutExpired: pass
            if p.poll() is None: problem = problem or f"channel error while running: {e!r}"
            break
    if p.poll() is None:
        r = ctl("reactivate"); r = ctl("ping")
        if r.returncode != 0:
            try: p.wait(timeout=3)
            except subprocess.TimeoutExpired: pass
            if p.poll() is None: problem = problem or f"ping after garbage: exit {r.returncode} while running {r.stderr[:200]!r}"
    if p.poll() is None: p.send_signal(signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=6)
        if p.returncode != 0: problem = problem or f"exit {p.returncode}: {err[-300:]!r}"
    except subprocess.TimeoutExpired:
        p.kill(); out, err = p.communicate(); problem = problem or "hang after SIGTERM"
    left = set(os.listdir(tmp)) - {"state"}
    if left: problem = problem or f"leftover {left}"
    if problem:
        fails += 1; print(f"#{i} {dev}: {problem}\n   stderr tail: {err[-400:]!r}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
print(f"{N} splash runs, {fails} problems")
sys.exit(1 if fails else 0)
