#!/usr/bin/env python3
"""`hybrid run` in a real pseudo-terminal that answers the app's questions as a given
terminal would: the kitty keyboard protocol and synchronized output are used only where the
terminal says it has them, and put back on every way out.

    python3 Tests/pty/protocols.py CASE BINARY [--repo DIR]

CASE is one of: kitty-keys, kitty-sigterm, kitty-crash, kitty-suspend, silent-terminal, or `all`. Prints
`PASS CASE: ...` or `FAIL CASE: reason` as drive.py does (whose Child, waits and checks these
cases use); standard library only.
"""

import os
import signal
import sys

import drive
from drive import (Child, Failure, JobChild, RESTORE, Screen, SYNC_BEGIN, SYNC_END, XTERM_ANSWERS, expect_exit, expect_raw,
                   expect_restored, expect_signal, write_screen)

PUSH_KEYBOARD = b"\x1b[>1u"
POP_KEYBOARD = b"\x1b[<u"
QUESTIONS = (b"\x1b[?u", b"\x1b[?2026$p", b"\x1b[c")
# kitty (and foot, WezTerm, Ghostty...): the keyboard protocol, with no flags pushed yet.
KITTY_ANSWERS = {b"\x1b[?u": b"\x1b[?0u", **XTERM_ANSWERS}


def keys_screen():
    """Shows the last key each binding saw; Esc would be ambiguous without the protocol."""
    def record(name):
        return {"action": "set", "path": "last", "value": name}
    return {"format": 1, "id": "keys", "state": {"last": "none"},
            "keys": {"ctrl+i": record("ctrl+i"), "tab": record("tab"), "esc": record("esc"),
                     "ctrl+enter": record("ctrl+enter"), "alt+x": record("alt+x"), "q": {"action": "quit"}},
            "body": {"type": "column", "children": [{"type": "text", "text": "last=@{last}."}]}}


def start_keys(binary, repo, folder, answers):
    screen = write_screen(folder, "keys.json", keys_screen())
    child = Child(binary, [screen], repo, answers=answers)
    try:
        child.wait_for("the first frame with last=none", lambda out: b"last=none." in out)
        expect_raw(child)
    except BaseException:
        child.close()
        raise
    return child


def shows(out, text):
    screen = Screen(80, 24)
    screen.feed(out)
    return screen.find(text) is not None


def press(child, data, shown):
    """Sends `data` and waits until the screen shows `last=SHOWN.`."""
    child.send(data)
    child.wait_for("last=%s. after %r" % (shown, data), lambda out: shows(out, "last=%s." % shown))


def expect_pushed(child):
    out = bytes(child.output)
    for question in QUESTIONS:
        if question not in out:
            raise Failure("the app did not ask %r at start" % question)
    if out.count(PUSH_KEYBOARD) != 1:
        raise Failure("expected the keyboard flags pushed once after kitty's answer, found %d pushes" % out.count(PUSH_KEYBOARD))


def expect_popped(child, how):
    """The flags are popped on the way out, before the rest of the restore sequence."""
    out = bytes(child.output)
    tail = out[out.rfind(PUSH_KEYBOARD):]
    if POP_KEYBOARD not in tail:
        raise Failure("%s: the keyboard flags were not popped on the way out: %r" % (how, out[-120:]))
    if tail.rfind(POP_KEYBOARD) > tail.rfind(RESTORE):
        raise Failure("%s: the pop came after the restore sequence" % how)
    expect_restored(child, how)


def case_kitty_keys(binary, repo, folder):
    child = start_keys(binary, repo, folder, KITTY_ANSWERS)
    try:
        expect_pushed(child)
        # kitty's forms: ctrl+i and Tab differ; Esc is a whole sequence (no waiting to see
        # whether a sequence follows); modifiers exact; a key release (event type 3) is no key.
        press(child, b"\x1b[105;5u", "ctrl+i")
        press(child, b"\t", "tab")
        press(child, b"\x1b[27u", "esc")
        press(child, b"\x1b[13;5u", "ctrl+enter")
        press(child, b"\x1b[120;3u\x1b[120;3:3u", "alt+x")
        press(child, b"\x1b[105;69u", "ctrl+i")  # caps lock (64) held changes nothing
        child.send(b"\x1b[27;1:3u")  # the release of Esc: nothing to do
        child.wait_quiet()
        if not shows(bytes(child.output), "last=ctrl+i."):
            raise Failure("a key release was taken for a key press")
        child.send(b"q")
        status = child.wait_exit()
        expect_exit(status, 0, "after q")
        expect_popped(child, "quit")
        if SYNC_BEGIN not in child.output:
            raise Failure("the terminal said it knows mode 2026, yet no frame used it")
        return "pushed the flags on kitty's answer; ctrl+i, tab, esc, ctrl+enter, alt+x exact; releases dropped; popped on quit"
    finally:
        child.close()


def start_pushed(binary, repo, folder):
    """The keys screen under a terminal answering as kitty, settled with its flags pushed."""
    child = start_keys(binary, repo, folder, KITTY_ANSWERS)
    try:
        expect_pushed(child)
        child.wait_quiet()
    except BaseException:
        child.close()
        raise
    return child


def case_kitty_sigterm(binary, repo, folder):
    child = start_pushed(binary, repo, folder)
    try:
        os.kill(child.pid, signal.SIGTERM)
        status = child.wait_exit()
        expect_signal(status, signal.SIGTERM, "after SIGTERM")
        expect_popped(child, "SIGTERM")
        return "the signal handler popped the keyboard flags and restored the terminal"
    finally:
        child.close()


def case_kitty_crash(binary, repo, folder):
    return drive.crash(start_pushed(binary, repo, folder), signal.SIGSEGV, strict=False, expect=expect_popped)


def case_kitty_suspend(binary, repo, folder):
    """Ctrl-Z (as kitty sends it) pops the flags with the rest of the restore; continuing
    pushes them again; Ctrl-C then pops them on the way out."""
    screen = write_screen(folder, "keys.json", keys_screen())
    child = JobChild(binary, [screen], repo)
    child.answers = KITTY_ANSWERS  # before the first read: the questions are not answered yet
    try:
        child.wait_for("the first frame with last=none", lambda out: shows(out, "last=none."))
        expect_pushed(child)
        child.wait_quiet()
        mark = len(child.output)
        child.send(b"\x1b[122;5u")
        child.wait_stopped("ctrl+z")
        left = bytes(child.output[mark:])
        if POP_KEYBOARD not in left or left.find(POP_KEYBOARD) > left.find(RESTORE):
            raise Failure("after ctrl+z the flags were not popped before the restore: %r" % left[-120:])
        resumed_at = len(child.output)
        os.kill(child.pid, signal.SIGCONT)
        child.wait_for("the flags pushed again after SIGCONT", lambda out: PUSH_KEYBOARD in out[resumed_at:])
        child.wait_quiet()
        child.send(b"\x1b[99;5u")
        status = child.wait_exit()
        expect_exit(status, 0, "after ctrl+c")
        expect_popped(child, "ctrl+c after a suspend")
        return "popped on ctrl+z, pushed again on SIGCONT, popped on ctrl+c"
    finally:
        child.close()


def case_silent_terminal(binary, repo, folder):
    """A terminal that answers nothing (an old one, or a pipe pretending): the first frame
    still comes, without synchronized-output markers and without the keyboard protocol."""
    child = start_keys(binary, repo, folder, {})
    try:
        press(child, b"\t", "tab")
        child.send(b"q")
        child.wait_exit()
        out = bytes(child.output)
        for unwanted, what in ((SYNC_BEGIN, "synchronized output"), (SYNC_END, "synchronized output"),
                               (PUSH_KEYBOARD, "the keyboard protocol"), (POP_KEYBOARD, "the keyboard protocol")):
            if unwanted in out:
                raise Failure("%s used on a terminal that never said it has it: %r" % (what, unwanted))
        expect_restored(child, "quit")
        return "first frame without answers, no markers, no keyboard protocol"
    finally:
        child.close()


CASES = {
    "kitty-keys": case_kitty_keys,
    "kitty-sigterm": case_kitty_sigterm,
    "kitty-crash": case_kitty_crash,
    "kitty-suspend": case_kitty_suspend,
    "silent-terminal": case_silent_terminal,
}


def main(argv):
    return drive.main(argv, CASES, "protocols.py", left_out_of_all=())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
