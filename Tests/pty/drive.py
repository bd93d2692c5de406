#!/usr/bin/env python3
"""End-to-end checks of `hybrid run` in a real pseudo-terminal.

    python3 Tests/pty/drive.py CASE BINARY [--repo DIR]

CASE is one of: ctrl-c, sigterm, other-signals, sigterm-warning, problem-order, crash (SIGABRT), crash-segv,
crash-strict, resize, click, small-diff, suspend, or `all` (every case but crash-strict, which needs the crash handler to re-raise
a signal sent with kill(); see crash_case).
BINARY is the built `hybrid` executable. The child runs with the repository as its
working directory (so `samples/form.json` resolves) and SWIFT_BACKTRACE=enable=no.

Prints `PASS CASE: ...` and exits 0, or prints `FAIL CASE: reason` with the tail of the
terminal output and exits 1. Standard library only; every wait is for specific output,
with generous timeouts for a slow, loaded machine.
"""

import fcntl
import json
import os
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import re
import time

CSI = re.compile(r"\x1b\[([0-9;?<>=]*)([@-~])")

ESC = b"\x1b"
ENTER_ALT = b"\x1b[?1049h"
LEAVE_ALT = b"\x1b[?1049l"
HIDE_CURSOR = b"\x1b[?25l"
SHOW_CURSOR = b"\x1b[?25h"
SYNC_BEGIN = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
# What TerminalSession writes on the way out, in this order, after the mouse and paste modes.
RESTORE = SHOW_CURSOR + LEAVE_ALT

# What a terminal answers to the questions `hybrid run` asks when it starts
# (TerminalCapabilities.query): xterm's answers by default (it knows synchronized output, mode
# 2026, and has no kitty keyboard protocol); a case may give a Child others, or none.
XTERM_ANSWERS = {b"\x1b[?2026$p": b"\x1b[?2026;2$y", b"\x1b[c": b"\x1b[?62;22c"}

WAIT = 10.0  # seconds for any one expected event
QUIET = 0.5  # seconds without output that count as "the frame is written"

LFLAG_BITS = {"ICANON": termios.ICANON, "ECHO": termios.ECHO, "ISIG": termios.ISIG, "IEXTEN": termios.IEXTEN}
IFLAG_BITS = {"ICRNL": termios.ICRNL, "IXON": termios.IXON}
OFLAG_BITS = {"OPOST": termios.OPOST}


class Failure(Exception):
    pass


def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Child:
    """`hybrid run ...` on the slave side of a fresh pty; we keep both ends open."""

    latest = None  # the last child started, for the failure report

    def __init__(self, binary, args, repo, columns=80, rows=24, answers=XTERM_ANSWERS):
        self.open_pty(columns, rows, answers)
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                self.exec_app(binary, args, repo)
            except BaseException as error:  # noqa: BLE001 - report anything, then leave
                os.write(2, ("exec failed: %r\n" % (error,)).encode())
            finally:
                os._exit(127)
        self.pid = pid
        self.start_reading()

    # -- starting (shared with JobChild) -----------------------------------------------------

    def open_pty(self, columns, rows, answers=XTERM_ANSWERS):
        self.master, self.slave = os.openpty()
        set_size(self.slave, columns, rows)
        self.answers = answers
        self.answered = {}
        self.output = bytearray()
        self.status = None
        self.before = termios.tcgetattr(self.slave)

    def exec_app(self, binary, args, repo):
        """In the forked child: the pty as standard input, output and error, then `hybrid run`."""
        env = dict(os.environ)
        env["SWIFT_BACKTRACE"] = "enable=no"
        env["TERM"] = "xterm-256color"
        env.pop("NO_COLOR", None)
        for fd in (0, 1, 2):
            os.dup2(self.slave, fd)
        os.close(self.master)
        if self.slave > 2:
            os.close(self.slave)
        os.chdir(repo)
        os.execve(binary, [binary, "run"] + list(args), env)

    def start_reading(self):
        Child.latest = self
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)

    # -- output ----------------------------------------------------------------------------

    def pump(self, timeout):
        """Reads what is available within `timeout` seconds; returns the number of bytes."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return 0
        total = 0
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except BlockingIOError:
                break
            except OSError:  # EIO: no slave left open (we keep one, so rarely)
                break
            if not chunk:
                break
            self.output += chunk
            total += len(chunk)
        if total:
            self.answer()
        return total

    def answer(self):
        """Answers each question in the output once, in the order asked, as a terminal does."""
        asked = []
        for question in self.answers:
            at = -1
            for _ in range(self.answered.get(question, 0) + 1):
                at = self.output.find(question, at + 1)
                if at < 0:
                    break
            while at >= 0:
                asked.append((at, question))
                at = self.output.find(question, at + 1)
        for _, question in sorted(asked):
            self.answered[question] = self.answered.get(question, 0) + 1
            self.send(self.answers[question])

    def wait_for(self, what, predicate, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while True:
            if predicate(bytes(self.output)):
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure("timed out after %.0f s waiting for %s" % (timeout, what))
            self.pump(min(remaining, 0.1))
            self.reap_if_exited()
            if self.status is not None and not predicate(bytes(self.output)):
                self.pump(0.2)
                if not predicate(bytes(self.output)):
                    raise Failure("the process ended (%s) while waiting for %s" % (describe(self.status), what))

    def wait_quiet(self, quiet=QUIET, timeout=WAIT):
        """Waits until nothing was written for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while True:
            now = time.monotonic()
            if now - last >= quiet:
                return
            if now >= deadline:
                raise Failure("output never went quiet for %.1f s within %.0f s" % (quiet, timeout))
            if self.pump(min(quiet - (now - last), deadline - now)) > 0:
                last = time.monotonic()

    def wait_first_frame(self):
        self.wait_for("the first frame (alternate screen, then a synchronized frame with text)",
                      lambda out: ENTER_ALT in out and SYNC_END in out.split(ENTER_ALT, 1)[1])

    def send(self, data):
        os.write(self.master, data)

    # -- process ---------------------------------------------------------------------------

    def reap_if_exited(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = status
        return self.status

    def wait_exit(self, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while self.reap_if_exited() is None:
            if time.monotonic() >= deadline:
                raise Failure("the process did not end within %.0f s" % timeout)
            self.pump(0.05)
        # Whatever it wrote before it ended is still in the pty (we hold the slave open).
        while self.pump(0.1) > 0:
            pass
        return self.status

    def kill(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.status = -1

    def close(self):
        self.kill()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    # -- terminal settings ----------------------------------------------------------------

    def termios_now(self):
        return termios.tcgetattr(self.slave)


def expect_exit(status, code, after):
    """The process ended by itself with exit status `code`."""
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == code):
        raise Failure("%s: expected exit status %d, got %s" % (after, code, describe(status)))


def expect_signal(status, number, after):
    """The process died of signal `number`."""
    if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == number):
        name = signal.Signals(number).name
        raise Failure("%s: expected death by %s, got %s" % (after, name, describe(status)))


def describe(status):
    if status is None:
        return "still running"
    if status == -1:
        return "killed by the driver after the failure"
    if os.WIFEXITED(status):
        return "exit status %d" % os.WEXITSTATUS(status)
    if os.WIFSIGNALED(status):
        return "killed by %s" % signal.Signals(os.WTERMSIG(status)).name
    return "wait status %#x" % status


def flag_names(attrs):
    iflag, oflag, _, lflag = attrs[0], attrs[1], attrs[2], attrs[3]
    names = [n for n, b in LFLAG_BITS.items() if lflag & b]
    names += [n for n, b in IFLAG_BITS.items() if iflag & b]
    names += [n for n, b in OFLAG_BITS.items() if oflag & b]
    return " ".join(names) or "(none)"


def expect_raw(child):
    """While running, the terminal is in raw mode: proves the before/after comparison means something."""
    lflag = child.termios_now()[3]
    if lflag & (termios.ICANON | termios.ECHO | termios.ISIG):
        raise Failure("the terminal is not in raw mode while running (lflag has %s)" % flag_names(child.termios_now()))
    if not child.before[3] & (termios.ICANON | termios.ECHO | termios.ISIG):
        raise Failure("the pty did not start in cooked mode; the check would prove nothing")


def expect_restored(child, how, report_after=False):
    """The terminal is as it was before; with `report_after`, a report may follow the restore."""
    out = bytes(child.output)
    if report_after and RESTORE in out:
        out = out[:out.rfind(RESTORE) + len(RESTORE)]
    if not out.endswith(RESTORE):
        raise Failure("%s: the output does not end with the restore sequence ESC[?25h ESC[?1049l; it ends with %r"
                      % (how, out[-80:]))
    # Every mode we switched on is switched off in the last stretch of output.
    tail = out[out.rfind(SYNC_END) + len(SYNC_END):] if SYNC_END in out else out
    for mode in (b"\x1b[?1000l", b"\x1b[?1002l", b"\x1b[?1006l", b"\x1b[?2004l"):
        if mode not in tail:
            raise Failure("%s: the mode reset %r is missing after the last frame" % (how, mode))
    after = child.termios_now()
    b, a = child.before, after
    lmask = termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN
    if (b[3] & lmask) != (a[3] & lmask):
        raise Failure("%s: terminal settings not restored: lflag before [%s], after [%s]" % (how, flag_names(b), flag_names(a)))
    if b[:4] != a[:4] or b[6] != a[6]:
        raise Failure("%s: terminal settings differ after the run: before %r, after %r" % (how, b, a))


class Screen:
    """Just enough of a terminal to see where text lands: cursor moves (CUP, CUU/CUD/CUF/CUB,
    CHA, VPA), CR, LF, ED 2, EL 0, IL and DL, text; other sequences (SGR, modes) are skipped. One cell per character (the screens here are ASCII)."""

    def __init__(self, columns, rows):
        self.columns, self.rows = columns, rows
        self.clear()
        self.row = self.column = 0

    def clear(self):
        self.cells = [[" "] * self.columns for _ in range(self.rows)]

    def feed(self, data):
        text = data.decode("utf-8", "replace")
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                match = CSI.match(text, i)
                if match:
                    params, final = match.group(1), match.group(2)
                    if final == "H" and not params.startswith("?"):
                        parts = (params.split(";") + ["", ""])[:2]
                        self.row = min(self.rows - 1, max(0, int(parts[0] or 1) - 1))
                        self.column = min(self.columns - 1, max(0, int(parts[1] or 1) - 1))
                    elif final == "J" and params == "2":
                        self.clear()
                    elif final in "ABCDGdKLM" and not params.startswith("?"):
                        self.move(final, params)
                    i = match.end()
                else:
                    i += 2
                continue
            if ch == "\r":
                self.column = 0
            elif ch == "\n":
                self.row = min(self.rows - 1, self.row + 1)
            elif ch >= " ":
                if self.column < self.columns:
                    self.cells[self.row][self.column] = ch
                self.column += 1
            i += 1

    def move(self, final, params):
        n = int(params.split(";")[0] or 0)
        if final == "A":
            self.row = max(0, self.row - max(1, n))
        elif final == "B":
            self.row = min(self.rows - 1, self.row + max(1, n))
        elif final == "C":
            self.column = min(self.columns - 1, self.column + max(1, n))
        elif final == "D":
            self.column = max(0, self.column - max(1, n))
        elif final == "G":
            self.column = min(self.columns - 1, max(0, n - 1))
        elif final == "d":
            self.row = min(self.rows - 1, max(0, n - 1))
        elif final == "K" and n == 0:
            for c in range(min(self.column, self.columns), self.columns):
                self.cells[self.row][c] = " "
        elif final in "LM":
            # Insert or delete lines at the cursor's row; the rows below move, blanks fill in.
            n = min(max(1, n), self.rows - self.row)
            blank = [[" "] * self.columns for _ in range(n)]
            below = self.cells[self.row:]
            below = blank + below[:len(below) - n] if final == "L" else below[n:] + blank
            self.cells[self.row:] = below
            self.column = 0

    def line(self, row):
        return "".join(self.cells[row])

    def find(self, text):
        """(row, column) of `text`, 1-based, or None."""
        for row in range(self.rows):
            at = self.line(row).find(text)
            if at >= 0:
                return row + 1, at + 1
        return None

    def dump(self):
        return "\n".join("|" + self.line(r) + "|" for r in range(self.rows))


# -- screens written for the cases ---------------------------------------------------------

def write_screen(folder, name, document):
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        json.dump(document, handle, indent=2)
    return path


RIGHT_MARK = "RIGHTEDGE"


def resize_screen():
    return {
        "format": 1,
        "id": "resize",
        "body": {"type": "column", "children": [
            {"type": "text", "text": "top line"},
            {"type": "text", "text": RIGHT_MARK, "style": {"width": "fill", "textAlign": "right"}},
        ]},
    }


def click_screen():
    return {
        "format": 1,
        "id": "click",
        "state": {"clicked": "no"},
        "body": {"type": "column", "children": [
            {"type": "text", "text": "clicked=@{clicked}"},
            {"type": "button", "id": "press", "label": "PressMe",
             "onPress": {"action": "set", "path": "clicked", "value": "yes"}},
        ]},
    }


def counter_screen():
    return {
        "format": 1,
        "id": "counter",
        "title": "Counter",
        "state": {"n": 1},
        "keys": {"+": {"action": "set", "path": "n", "value": "@{n + 1}"}},
        "body": {"type": "column", "style": {"padding": 1, "gap": 1}, "children": [
            {"type": "text", "text": "A counter among other things", "style": {"bold": True, "color": "cyan"}},
            {"type": "row", "style": {"gap": 2}, "children": [
                {"type": "box", "title": "Left", "style": {"border": "rounded", "width": 30, "padding": [0, 1]},
                 "child": {"type": "column", "children": [
                     {"type": "text", "text": "first line of the left box"},
                     {"type": "text", "text": "n=@{n}", "style": {"bold": True, "color": "yellow"}},
                     {"type": "text", "text": "last line of the left box"},
                 ]}},
                {"type": "box", "title": "Right", "style": {"border": "double", "flex": 1, "padding": [0, 1]},
                 "child": {"type": "column", "children": [
                     {"type": "text", "text": "unchanging text on the right"},
                     {"type": "progress", "value": 0.4, "label": "progress"},
                     {"type": "text", "text": "more unchanging text", "style": {"italic": True}},
                 ]}},
            ]},
            {"type": "divider"},
            {"type": "text", "text": "Press + to count. Everything else on this screen stays as it is.", "style": {"dim": True}},
        ]},
    }


class JobChild(Child):
    """`hybrid run` as the job of a tiny job-control shell: the shell leads the session on the
    pty and the app runs in its own foreground process group, as under bash. Ctrl-Z's SIGTSTP
    then stops the app; a group with no parent in its session (Child's) is orphaned, and the
    kernel discards SIGTSTP sent to it."""

    def __init__(self, binary, args, repo, columns=80, rows=24):  # noqa: super().__init__ forks the app itself
        self.open_pty(columns, rows)
        read_end, write_end = os.pipe()
        shell = os.fork()
        if shell == 0:
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                os.close(read_end)
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
                app = os.fork()
                if app == 0:
                    os.setpgid(0, 0)
                    os.tcsetpgrp(self.slave, os.getpid())
                    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
                    self.exec_app(binary, args, repo)
                try:
                    os.setpgid(app, app)
                except OSError:
                    pass  # the app made its group first
                os.write(write_end, str(app).encode())
                os.close(write_end)
                _, status = os.waitpid(app, 0)  # stops are the test's business, not the shell's
                os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
            except BaseException as error:  # noqa: BLE001 - report anything, then leave
                os.write(2, ("job shell failed: %r\n" % (error,)).encode())
            finally:
                os._exit(127)
        os.close(write_end)
        self.shell = shell
        self.pid = int(os.read(read_end, 32))
        os.close(read_end)
        self.start_reading()

    def wait_stopped(self, after):
        """Waits until the app is stopped (state T), then reads what it wrote on the way."""
        deadline = time.monotonic() + WAIT
        while self.process_state() != "T":
            if time.monotonic() > deadline:
                raise Failure("after %s the app was not stopped (state %s)" % (after, self.process_state()))
            self.pump(0.05)
        self.pump(0.2)

    def reap_if_exited(self):
        """The app's end, as its shell reports it (the app is not our child)."""
        if self.status is None:
            pid, status = os.waitpid(self.shell, os.WNOHANG)
            if pid == self.shell:
                self.status = status
        return self.status

    def process_state(self):
        """The app's state letter in /proc (T: stopped)."""
        with open("/proc/%d/stat" % self.pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]

    def kill(self):
        if self.status is None:
            for pid in (self.pid, self.shell):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                os.waitpid(self.shell, 0)
            except ChildProcessError:
                pass
            self.status = -1


# -- cases ---------------------------------------------------------------------------------

def case_ctrl_c(binary, repo, folder):
    child = Child(binary, ["samples/form.json"], repo)
    try:
        child.wait_first_frame()
        child.wait_for("some text of the form", lambda out: b"Create your HybridTerm account" in out)
        expect_raw(child)
        child.send(b"\x03")
        status = child.wait_exit()
        expect_exit(status, 0, "after Ctrl-C")
        expect_restored(child, "Ctrl-C")
        return "exit 0, terminal restored (%s)" % flag_names(child.termios_now())
    finally:
        child.close()


def start_form(binary, repo):
    child = Child(binary, ["samples/form.json"], repo)
    try:
        child.wait_first_frame()
        child.wait_for("some text of the form", lambda out: b"Create your HybridTerm account" in out)
        expect_raw(child)
        child.wait_quiet()
    except BaseException:
        child.close()
        raise
    return child


def case_other_signals(binary, repo, folder):
    """Signals whose default is to end the process, which nothing in the app sends: each still
    restores the terminal, then ends the process as it would have. (Not SIGPIPE: Python ignores
    it, and the child inherits that, so the app rightly leaves it ignored.)"""
    for number in (signal.SIGALRM, signal.SIGUSR2, signal.SIGXCPU):
        child = start_form(binary, repo)
        try:
            os.kill(child.pid, number)
            status = child.wait_exit()
            expect_signal(status, number, "after %s" % number.name)
            expect_restored(child, number.name)
        finally:
            child.close()
    return "killed by SIGALRM, SIGUSR2 and SIGXCPU, the terminal restored each time"


def case_sigterm(binary, repo, folder):
    child = start_form(binary, repo)
    try:
        os.kill(child.pid, signal.SIGTERM)
        status = child.wait_exit()
        expect_signal(status, signal.SIGTERM, "after SIGTERM")
        expect_restored(child, "SIGTERM")
        return "killed by SIGTERM, terminal restored"
    finally:
        child.close()


def crash_case(binary, repo, number, strict):
    return crash(start_form(binary, repo), number, strict)


def crash(child, number, strict, expect=expect_restored):
    """A crash signal restores the terminal (as `expect` checks), then goes to the handler
    that was there before (here the default action: death by that signal).

    A real crash delivers the signal again by itself (the faulting instruction runs again;
    abort() raises a second time). A signal sent with kill() does not: unless the runtime
    re-raises it, the process survives the first one. Unless `strict`, a second signal
    stands in for that second delivery, after checking the terminal was restored."""
    name = signal.Signals(number).name
    note = ""
    try:
        os.kill(child.pid, number)
        try:
            status = child.wait_exit(timeout=WAIT if strict else 3.0)
        except Failure:
            if strict:
                raise Failure("the process survived %s sent with kill(): the crash handler restored the terminal "
                              "and chained, but nothing delivers the signal again" % name)
            # Restored already, while still running; the previous handler must now take it.
            child.wait_quiet()
            expect(child, "%s (first, process still running)" % name)
            note = " (it survived the first %s sent with kill(); the second one ended it)" % name
            os.kill(child.pid, number)
            status = child.wait_exit()
        expect_signal(status, number, "after %s" % name)
        expect(child, name)
        return "killed by %s, terminal restored before it ended%s" % (name, note)
    finally:
        child.close()


def case_crash(binary, repo, folder):
    return crash_case(binary, repo, signal.SIGABRT, strict=True)


def case_crash_segv(binary, repo, folder):
    return crash_case(binary, repo, signal.SIGSEGV, strict=True)


def case_crash_strict(binary, repo, folder):
    return crash_case(binary, repo, signal.SIGABRT, strict=True)


def cursor_columns(data):
    """Columns of every ESC[row;colH in `data`."""
    columns = []
    i = 0
    while True:
        i = data.find(b"\x1b[", i)
        if i < 0:
            return columns
        j = i + 2
        while j < len(data) and (48 <= data[j] <= 57 or data[j] == 59):
            j += 1
        if j < len(data) and data[j:j + 1] == b"H":
            parts = data[i + 2:j].split(b";")
            if len(parts) == 2 and parts[1]:
                columns.append((int(parts[0] or b"1"), int(parts[1])))
        i = j


def case_resize(binary, repo, folder):
    screen = write_screen(folder, "resize.json", resize_screen())
    child = Child(binary, [screen], repo, columns=80, rows=24)
    try:
        child.wait_first_frame()
        child.wait_for("the right-aligned text", lambda out: RIGHT_MARK.encode() in out)
        child.wait_quiet()
        before = Screen(80, 24)
        before.feed(bytes(child.output))
        at80 = (2, 80 - len(RIGHT_MARK) + 1)
        if before.find(RIGHT_MARK) != at80:
            raise Failure("at 80 columns the right-aligned text is at %r, not %r:\n%s" % (before.find(RIGHT_MARK), at80, before.dump()))
        start = len(child.output)
        set_size(child.slave, 100, 30)
        os.kill(child.pid, signal.SIGWINCH)
        at100 = (2, 100 - len(RIGHT_MARK) + 1)  # only reachable on a 100-column screen

        def redrawn(out):
            # A fresh, blank screen: only a full redraw puts the unchanged top line back on it.
            after = Screen(100, 30)
            after.feed(out[start:])
            return after.find(RIGHT_MARK) == at100 and after.find("top line") == (1, 1)

        try:
            child.wait_for("a full redraw at 100x30 (the top line repainted, the right-aligned text at row %d, column %d)" % at100, redrawn)
        except Failure:
            after = Screen(100, 30)
            after.feed(bytes(child.output[start:]))
            raise Failure("no full redraw at 100x30; what was written after the resize shows:\n" + after.dump())
        new = bytes(child.output[start:])
        if SYNC_BEGIN not in new or SYNC_END not in new:
            raise Failure("the redraw is not inside synchronized-output markers")
        wide = [p for p in cursor_columns(new) if p[1] > 80]
        child.send(b"\x03")
        status = child.wait_exit()
        expect_exit(status, 0, "Ctrl-C after the resize")
        return "redrawn at 100x30, text at row %d, column %d; cursor moves past column 80: %s" % (
            at100 + (" ".join("ESC[%d;%dH" % p for p in wide) or "none",))
    finally:
        child.close()


def case_click(binary, repo, folder):
    screen = write_screen(folder, "click.json", click_screen())
    child = Child(binary, [screen], repo)
    try:
        child.wait_first_frame()
        child.wait_for("the button and the state text", lambda out: b"PressMe" in out and b"clicked=no" in out)
        child.wait_quiet()
        # Click where the frame actually put the label, not where we guess it is.
        view = Screen(80, 24)
        view.feed(bytes(child.output))
        spot = view.find("PressMe")
        if spot is None:
            raise Failure("the button's label is not on the emulated screen:\n" + view.dump())
        row, column = spot
        x = column + 3  # inside the label, 1-based
        start = len(child.output)
        child.send(b"\x1b[<0;%d;%dM" % (x, row))
        child.send(b"\x1b[<0;%d;%dm" % (x, row))

        def clicked(out):
            now = Screen(80, 24)
            now.feed(out)
            return now.find("clicked=yes") is not None

        child.wait_for("clicked=yes on screen after the click at column %d, row %d" % (x, row), clicked)
        child.send(b"\x03")
        child.wait_exit()
        return "click at row %d, column %d set clicked=yes" % (row, x)
    finally:
        child.close()


def case_small_diff(binary, repo, folder):
    screen = write_screen(folder, "counter.json", counter_screen())
    child = Child(binary, [screen], repo)
    try:
        child.wait_first_frame()
        child.wait_for("n=1 and the text around it", lambda out: b"n=1" in out and b"Everything else" in out)
        child.wait_quiet(quiet=1.0)
        first = len(child.output)
        child.send(b"+")
        child.wait_for("a frame after '+'", lambda out: SYNC_END in out[first:])
        child.wait_quiet(quiet=1.0)
        diff = bytes(child.output[first:])
        print("small-diff: '+' wrote %d bytes after a first frame of %d bytes: %r" % (len(diff), first, diff))
        if b"2" not in diff:
            raise Failure("the diff after '+' does not contain the new digit 2: %r" % diff)
        if len(diff) >= 60:
            raise Failure("a one-character change wrote %d bytes (limit 60): %r" % (len(diff), diff))
        child.send(b"\x03")
        child.wait_exit()
        return "'+' wrote %d bytes (first frame %d bytes)" % (len(diff), first)
    finally:
        child.close()


def case_fatal(binary, repo, folder):
    """A bundle whose script throws while starting: the run ends with status 1, the terminal
    is restored, and the error is printed after the restore sequence, where it stays readable."""
    bundle = os.path.join(folder, "broken")
    os.makedirs(bundle)
    write_screen(bundle, "home.json", {"format": 1, "id": "home", "body": {"type": "text", "text": "never shown"}})
    write_screen(bundle, "manifest.json", {"app": "broken", "version": "1.0.0", "entry": "main.js",
                                           "start": "home", "screens": {"home": "home.json"}})
    with open(os.path.join(bundle, "main.js"), "w") as handle:
        handle.write("const ready = false;\nthrow new Error('broken at start');\n")
    child = Child(binary, [bundle], repo)
    try:
        status = child.wait_exit()
        expect_exit(status, 1, "a bundle failing at start")
        out = bytes(child.output)
        restored = out.rfind(RESTORE)
        message = out.find(b"main.js:2:")
        if restored < 0:
            raise Failure("the restore sequence is missing: %r" % out[-200:])
        if message < restored:
            raise Failure("the error must come after the terminal is restored: %r" % out[-300:])
        if b"Error: broken at start" not in out[message:]:
            raise Failure("the script's error is not reported: %r" % out[-300:])
        return "exit 1, terminal restored, then the error"
    finally:
        child.close()


def case_stuck_await(binary, repo, folder):
    """An async function that awaits in an endless loop, started by a key: the engine cannot
    stop it, so the app ends with status 1, the terminal restored, then the report."""
    bundle = os.path.join(folder, "stuck")
    os.makedirs(bundle)
    write_screen(bundle, "home.json", {"format": 1, "id": "home", "keys": {"x": "spin"},
                                       "body": {"type": "text", "text": "press x"}})
    write_screen(bundle, "manifest.json", {"app": "stuck", "version": "1.0.0", "entry": "main.js",
                                           "start": "home", "screens": {"home": "home.json"}})
    with open(os.path.join(bundle, "main.js"), "w") as handle:
        handle.write("async function spin() {\n  while (true) { await null; }\n}\n"
                     "ui.handler('spin', () => { spin(); });\nhybrid.ready();\n")
    child = Child(binary, [bundle], repo)
    try:
        child.wait_first_frame()
        child.wait_for("the screen", lambda out: b"press x" in out)
        expect_raw(child)
        child.send(b"x")
        status = child.wait_exit()
        expect_exit(status, 1, "a stuck script")
        expect_restored(child, "after a stuck script", report_after=True)
        out = bytes(child.output)
        restored = out.rfind(RESTORE)
        message = out.find(b"stopped the app: the handler spin")
        if restored < 0:
            raise Failure("the restore sequence is missing: %r" % out[-200:])
        if message < restored:
            raise Failure("the report must come after the terminal is restored: %r" % out[-300:])
        return "exit 1, terminal restored, then the report"
    finally:
        child.close()


def case_timer_redraw(binary, repo, folder):
    """A timer that changes state redraws the screen with no key pressed (the marquee has no
    spinner to keep frames coming)."""
    child = Child(binary, ["samples/marquee"], repo)
    try:
        child.wait_first_frame()
        child.wait_for("the marquee", lambda out: b"Now showing" in out)
        before = len(child.output)
        child.wait_for("a frame drawn by the timer alone", lambda out: len(out) > before + 10 and SYNC_BEGIN in out[before:])
        return "the timer redrew the marquee without input (%d bytes)" % (len(child.output) - before)
    finally:
        child.close()


def case_held_stderr(binary, repo, folder):
    """What a script logs while the app runs does not scribble on the screen: it comes out
    after the terminal is restored."""
    bundle = os.path.join(folder, "noisy")
    os.makedirs(bundle)
    write_screen(bundle, "home.json", {"format": 1, "id": "home", "body": {"type": "text", "text": "quiet screen"}})
    write_screen(bundle, "manifest.json", {"app": "noisy", "version": "1.0.0", "entry": "main.js",
                                           "start": "home", "screens": {"home": "home.json"}})
    with open(os.path.join(bundle, "main.js"), "w") as handle:
        handle.write("console.error('NOISE FROM A SCRIPT');\nsetTimeout(() => console.warn('MORE NOISE'), 10);\n")
    child = Child(binary, [bundle], repo)
    try:
        child.wait_first_frame()
        child.wait_for("the screen", lambda out: b"quiet screen" in out)
        child.wait_quiet()
        child.send(b"\x03")
        status = child.wait_exit()
        expect_exit(status, 0, "after Ctrl-C")
        out = bytes(child.output)
        restored = out.rfind(RESTORE)
        for noise in (b"NOISE FROM A SCRIPT", b"MORE NOISE"):
            at = out.find(noise)
            if at < 0:
                raise Failure("%r was lost" % noise)
            if at < restored:
                raise Failure("%r was written while the app ran, onto its screen" % noise)
        return "log lines held until the terminal was restored"
    finally:
        child.close()


def unsigned_bundle(folder, name, script):
    """An unsigned bundle folder whose home screen shows `name`, with `script` as its entry."""
    bundle = os.path.join(folder, name)
    os.makedirs(bundle)
    write_screen(bundle, "home.json", {"format": 1, "id": "home", "body": {"type": "text", "text": "screen of " + name}})
    write_screen(bundle, "manifest.json", {"app": name, "version": "1.0.0", "entry": "main.js",
                                           "start": "home", "screens": {"home": "home.json"}})
    with open(os.path.join(bundle, "main.js"), "w") as handle:
        handle.write(script)
    return bundle


def expect_once_in_order(out, pieces):
    """Each of `pieces` is in `out` exactly once, in the order given."""
    at = -1
    for piece in pieces:
        if out.count(piece) != 1:
            raise Failure("%r should be printed once, found %d times: %r" % (piece, out.count(piece), out[-600:]))
        where = out.find(piece)
        if where < at:
            raise Failure("%r is printed before what comes ahead of it: %r" % (piece, out[-600:]))
        at = where


def case_problem_order(binary, repo, folder):
    """A bundle whose script throws while starting: after the restore, the development-bundle
    warning, the script's error, then the line that refers to it, each once and in that order."""
    bundle = unsigned_bundle(folder, "thrower", "const ready = false;\nthrow new Error('broken at start');\n")
    child = Child(binary, [bundle], repo)
    try:
        status = child.wait_exit()
        expect_exit(status, 1, "a bundle failing at start")
        out = bytes(child.output)
        after = out[out.rfind(RESTORE):]
        expect_once_in_order(after, [b"a development bundle (no manifest.sig); it runs unsigned",
                                     b"Error: broken at start", b"the bundle's script failed while starting"])
        return "the warning, the error, then the line that refers to it"
    finally:
        child.close()


def case_sigterm_warning(binary, repo, folder):
    """The development-bundle warning, written while the app runs, is printed once after the
    terminal is restored, even when SIGTERM ends the app."""
    bundle = unsigned_bundle(folder, "quiet", "hybrid.ready();\n")
    child = Child(binary, [bundle], repo)
    try:
        child.wait_first_frame()
        child.wait_for("the screen", lambda out: b"screen of quiet" in out)
        child.wait_quiet()
        os.kill(child.pid, signal.SIGTERM)
        status = child.wait_exit()
        expect_signal(status, signal.SIGTERM, "after SIGTERM")
        expect_restored(child, "SIGTERM", report_after=True)
        out = bytes(child.output)
        expect_once_in_order(out[out.rfind(RESTORE):], [b"a development bundle (no manifest.sig); it runs unsigned"])
        return "killed by SIGTERM, terminal restored, the warning printed once"
    finally:
        child.close()


def case_suspend(binary, repo, folder):
    """Ctrl-Z restores the terminal and stops the app; SIGCONT (the shell's `fg`) enters the
    session again and redraws the whole screen; Ctrl-C then ends it as usual."""
    child = JobChild(binary, ["samples/form.json"], repo)
    try:
        child.wait_first_frame()
        child.wait_for("some text of the form", lambda out: b"Create your HybridTerm account" in out)
        expect_raw(child)
        child.wait_quiet()
        mark = len(child.output)
        child.send(b"\x1a")
        child.wait_stopped("Ctrl-Z")
        if RESTORE not in bytes(child.output[mark:]):
            raise Failure("after Ctrl-Z the output has no restore sequence: %r" % bytes(child.output[mark:])[-120:])
        stopped = child.termios_now()
        if stopped[3] != child.before[3]:
            raise Failure("while stopped the terminal is not as it was (lflag %s)" % flag_names(stopped))
        resumed_at = len(child.output)
        os.kill(child.pid, signal.SIGCONT)
        child.wait_for("the whole screen again after SIGCONT",
                       lambda out: ENTER_ALT in out[resumed_at:] and b"Create your HybridTerm account" in out[resumed_at:])
        expect_raw(child)
        child.wait_quiet()
        child.send(b"\x03")
        status = child.wait_exit()
        expect_exit(status, 0, "after Ctrl-C")
        expect_restored(child, "Ctrl-C after a suspend")
        return "stopped with the terminal restored, redrawn on SIGCONT, exit 0"
    finally:
        child.close()


CASES = {
    "timer-redraw": case_timer_redraw,
    "held-stderr": case_held_stderr,
    "fatal": case_fatal,
    "problem-order": case_problem_order,
    "sigterm-warning": case_sigterm_warning,
    "stuck-await": case_stuck_await,
    "ctrl-c": case_ctrl_c,
    "sigterm": case_sigterm,
    "other-signals": case_other_signals,
    "crash": case_crash,
    "crash-segv": case_crash_segv,
    "crash-strict": case_crash_strict,
    "resize": case_resize,
    "click": case_click,
    "small-diff": case_small_diff,
    "suspend": case_suspend,
}


def printable(data):
    return data.decode("utf-8", "replace").replace("\x1b", "\\e")


def run_case(name, binary, repo, cases=CASES):
    folder = tempfile.mkdtemp(prefix="hybrid-pty-")
    Child.latest = None
    # Whatever the run stores (storage services) stays in the temp folder.
    os.environ["XDG_DATA_HOME"] = os.path.join(folder, "data")
    try:
        summary = cases[name](binary, repo, folder)
        print("PASS %s: %s" % (name, summary))
        return True
    except Failure as failure:
        print("FAIL %s: %s" % (name, failure))
        child = Child.latest
        if child is not None:
            print("  process: %s" % describe(child.status))
            print("  last %d of %d bytes written to the terminal (ESC shown as \\e):" % (min(800, len(child.output)), len(child.output)))
            print("  " + printable(bytes(child.output[-800:])))
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv, cases=CASES, script="drive.py", left_out_of_all=("crash-strict",)):
    """Runs `CASE BINARY [--repo DIR]` from `cases`; `all` runs every case but those
    `left_out_of_all` names. The drivers of other case files (protocols.py) call it with theirs."""
    args = argv[1:]
    repo = os.getcwd()
    if "--repo" in args:
        at = args.index("--repo")
        repo = args[at + 1]
        del args[at:at + 2]
    if len(args) != 2 or (args[0] not in cases and args[0] != "all"):
        all_means = " (all but %s)" % ", ".join(left_out_of_all) if left_out_of_all else ""
        print("usage: %s CASE BINARY [--repo DIR]; CASE is all%s or one of %s"
              % (script, all_means, ", ".join(cases)), file=sys.stderr)
        return 2
    name, binary = args
    if not os.access(binary, os.X_OK):
        print("FAIL %s: no executable at %s (build with swift build --product hybrid)" % (name, binary))
        return 1
    names = [n for n in cases if n not in left_out_of_all] if name == "all" else [name]
    results = [run_case(n, binary, repo, cases) for n in names]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
