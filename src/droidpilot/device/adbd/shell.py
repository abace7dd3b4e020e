"""The SimPhone shell: the sh interpreter wired to Android's tools, one fresh shell per `adb shell` call."""

from __future__ import annotations

from droidpilot.device.adbd import coreutils as cu
from droidpilot.device.adbd import tools_dumpsys as td
from droidpilot.device.adbd import tools_input as ti
from droidpilot.device.adbd import tools_pm as tpm
from droidpilot.device.adbd import tools_process as tp
from droidpilot.device.adbd import tools_system as ts
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.sh import Result, Shell, Tool

TOOLS: dict[str, Tool] = {
    "input": ti.tool_input, "screencap": ti.tool_screencap, "uiautomator": ti.tool_uiautomator,
    "wm": ti.tool_wm, "am": ts.tool_am, "monkey": ts.tool_monkey, "settings": ts.tool_settings,
    "ime": ts.tool_ime, "dumpsys": td.tool_dumpsys, "getprop": ts.tool_getprop, "pm": tpm.tool_pm,
    "cmd": ts.tool_cmd, "echo": cu.tool_echo, "cat": cu.tool_cat, "ls": cu.tool_ls, "rm": cu.tool_rm,
    "mkdir": cu.tool_mkdir, "touch": cu.tool_touch, "sleep": cu.tool_sleep, "grep": cu.tool_grep,
    "head": cu.tool_head, "tail": cu.tool_tail, "wc": cu.tool_wc, "exit": cu.tool_exit, "cd": cu.tool_cd,
    "pwd": cu.tool_pwd, "date": cu.tool_date, "export": cu.tool_export, "test": cu.tool_test,
    "[": cu.tool_test,
    "true": cu.tool_const(""), "false": cu.tool_const("", 1),  # type: ignore[dict-item]
    "id": cu.tool_const("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n"),  # type: ignore[dict-item]
    "whoami": cu.tool_const("shell\n"),  # type: ignore[dict-item]
}
TOOLS.update(tp.TOOLS)  # ps, pidof, md5sum, toybox, app_process
for _path_name in list(TOOLS):
    TOOLS[f"/system/bin/{_path_name}"] = TOOLS[_path_name]

ENV = {"HOME": "/", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
       "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
       "SHELL": "/system/bin/sh",
       "USER": "shell", "TMPDIR": "/data/local/tmp", "HOSTNAME": "simphone"}


def new_shell(phone: Phone) -> Shell:
    """A fresh /system/bin/sh on the phone (cwd /, the shell user's environment)."""
    return Shell(TOOLS, phone.fs, ENV, ctx=phone)


def run(phone: Phone, line: str) -> Result:
    """Run one `adb shell` command line on the phone, as a fresh /system/bin/sh would."""
    return new_shell(phone).run(line)
