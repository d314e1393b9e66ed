#!/usr/bin/env python3
"""Feeds a running `fbanim splash` garbage on every control channel for
SECONDS: random bytes and psplash-shaped lines on its FIFO, random bytes
and Plymouth-shaped requests on Plymouth's socket, and `fbanim ctl`
commands (progress, message, ping, deactivate/reactivate), a few a second.
Never sends a quit or a newroot (Q, R): the splash must stay up, in its
root, for the whole soak; nor a bare deactivate or hide (D, H), which
stop its books: each hand-over is `ctl deactivate`, held 0.1-1 s, then
`ctl reactivate`, and the seconds handed over are counted (the splash's
books leave them out).

    feed.py FBANIM SECONDS FIFO SOCKET_NAME COUNTS_FILE
"""
import os, random, socket, subprocess, sys, time

fbanim, seconds, fifo, sock, counts = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
rnd = random.Random(1)
sent = {"fifo": 0, "socket": 0, "ctl": 0, "ctl_failed": 0, "handed_over_s": 0.0}
def noise(n):
    return bytes(rnd.choice([b for b in range(256) if b not in (ord("Q"), ord("R"), ord("D"), ord("H"))]) for _ in range(n))
end = time.monotonic() + seconds
while time.monotonic() < end:
    k = rnd.random()
    try:
        if k < 0.35:
            msg = rnd.choice([noise(rnd.randint(1, 200)).replace(b"QUIT", b"QUI?"),
                              b"PROGRESS %d" % rnd.randint(-50, 150), b"MSG " + noise(40).replace(b"\0", b" "),
                              b"PROGRESS nan", b"MSG " + b"\xe2\x82\xac" * 100])
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            try:
                os.write(fd, msg + rnd.choice([b"\0", b"\n", b""]))
            finally:
                os.close(fd)
            sent["fifo"] += 1
        elif k < 0.7:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(2)
            s.connect("\0" + sock)
            s.sendall(noise(rnd.randint(1, 64)))
            s.close()
            sent["socket"] += 1
        else:
            args = rnd.choice([["progress", str(rnd.randint(0, 100))], ["message", "soak %d" % sent["ctl"]],
                               ["hide-message"], ["ping"], ["deactivate"], ["reactivate"]])
            commands = [args]
            if args == ["deactivate"]:
                commands.append(["reactivate"])
            for i, command in enumerate(commands):
                if i:
                    time.sleep(rnd.uniform(0.1, 1.0))
                began = time.monotonic()
                r = subprocess.run([fbanim, "ctl"] + command, capture_output=True, timeout=20)
                if command == ["deactivate"]:
                    handed = began
                elif command == ["reactivate"] and len(commands) == 2:
                    sent["handed_over_s"] += time.monotonic() - handed
                sent["ctl"] += 1
                if r.returncode != 0:
                    sent["ctl_failed"] += 1
                    print("ctl", command, r.returncode, r.stderr.decode(errors="replace").strip(), file=sys.stderr)
    except OSError as e:
        print("feed:", repr(e), file=sys.stderr)
    time.sleep(rnd.uniform(0.05, 0.4))
subprocess.run([fbanim, "ctl", "reactivate"], capture_output=True, timeout=20)
with open(counts, "w") as f:
    f.write(" ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in sent.items()) + "\n")
