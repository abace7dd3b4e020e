"""Synthetic phone screens rendered with Pillow, with the true text and boxes of every label.

Used by the tests and by ``benchmarks/ocr_speed.py`` to measure OCR recall and localization on screens
whose ground truth is known: settings-like lists and app launchers, English or Chinese, light or dark.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from droidpilot.errors import DroidpilotError
from droidpilot.perception.types import Box

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
CJK_FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")

THEMES: dict[str, dict[str, tuple[int, int, int]]] = {
    "light": {"bg": (250, 250, 250), "fg": (20, 20, 20), "sub": (95, 99, 104), "bar": (232, 234, 237),
              "accent": (26, 115, 232)},
    "dark": {"bg": (18, 18, 18), "fg": (235, 235, 235), "sub": (170, 170, 170), "bar": (40, 40, 44),
             "accent": (138, 180, 248)},
}

EN_WORDS = ["Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage",
            "Sound & vibration", "Display", "Wallpaper & style", "Accessibility", "Security", "Privacy",
            "Location", "Safety & emergency", "Passwords & accounts", "Google", "System", "About phone",
            "Tips & support", "Digital Wellbeing"]
EN_SUBS = ["Wi-Fi, mobile, data usage", "Bluetooth, pairing", "Recent apps, default apps",
           "History, conversations", "85% - Should last until 11 PM", "54% used - 29.4 GB free",
           "Volume, haptics, Do Not Disturb", "Dark theme, font size", "Colours, themed icons",
           "Display, interaction, audio", "Screen lock, Find My Device", "Permissions, account activity",
           "On - 3 apps have access", "Emergency SOS, medical info", "Saved passwords, autofill",
           "Services & preferences", "Languages, gestures, time", "Pixel 7", "Help articles, phone & chat",
           "Screen time, app timers"]
ZH_WORDS = ["网络和互联网", "已连接的设备", "应用", "通知", "电池", "存储", "声音和振动", "显示",
            "壁纸和个性化", "无障碍", "安全", "隐私", "位置信息", "安全与紧急情况", "密码和帐号", "系统",
            "关于手机", "提示和支持", "数字健康", "微信支付"]
ZH_SUBS = ["移动网络、数据用量", "蓝牙、配对", "最近使用的应用", "历史记录、对话", "剩余电量 85%",
           "已使用 54%", "音量、触感反馈", "深色主题、字体大小", "颜色、主题图标", "显示、互动、音频",
           "屏幕锁定、查找设备", "权限、帐号活动", "已开启", "紧急求救", "已保存的密码", "语言、手势、时间",
           "型号 Pixel 7", "帮助文章", "屏幕使用时间", "付款码"]


@dataclass(frozen=True)
class Label:
    """One piece of text drawn on a synthetic screen and its true box (device pixels)."""

    text: str
    box: Box


@dataclass
class SynthScreen:
    """A rendered screen, its labels, and (launchers) the box of each app's icon by app name."""

    image: Image.Image
    labels: list[Label]
    icons: dict[str, Box] = field(default_factory=dict)

    def label(self, text: str) -> Label:
        """The first label whose text is ``text``; KeyError when none."""
        for lab in self.labels:
            if lab.text == text:
                return lab
        raise KeyError(text)


@lru_cache(maxsize=64)
def font(size: int, cjk: bool = False, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A TrueType font of ``size`` pixels: DejaVu Sans (bold optional) or WenQuanYi Micro Hei for CJK."""
    path = CJK_FONT if cjk else DEJAVU_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if not path.exists():
        raise DroidpilotError(f"font {path} is missing; install the distribution packages "
                              "fonts-dejavu-core and fonts-wqy-microhei (`sudo make system-deps`)")
    return ImageFont.truetype(str(path), size)


def draw_label(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fnt: ImageFont.FreeTypeFont,
               fill: tuple[int, int, int], anchor: str = "la") -> Label:
    """Draw ``text`` and return it with the tight box of its ink."""
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    x1, y1, x2, y2 = draw.textbbox(xy, text, font=fnt, anchor=anchor)
    return Label(text, (int(x1), int(y1), int(x2), int(y2)))


def _theme(name: str) -> dict[str, tuple[int, int, int]]:
    if name not in THEMES:
        raise DroidpilotError(f"unknown theme {name!r}; use one of {sorted(THEMES)}")
    return THEMES[name]


def render_list_screen(size: tuple[int, int] = (1080, 2400), theme: str = "light", lang: str = "en",
                       seed: int = 0, scale: float = 1.0) -> SynthScreen:
    """A settings-like screen: status bar, bold title, rows of title + subtitle, bottom navigation.

    ``scale`` multiplies every font size and spacing (1.0 suits a 1080-pixel-wide screen).
    """
    w, h = size
    colors = _theme(theme)
    cjk = lang == "zh"
    words, subs = (ZH_WORDS, ZH_SUBS) if cjk else (EN_WORDS, EN_SUBS)
    rng = random.Random(seed)
    order = list(range(len(words)))
    rng.shuffle(order)

    def px(v: float) -> int:
        return max(1, round(v * scale))

    img = Image.new("RGB", size, colors["bg"])
    draw = ImageDraw.Draw(img)
    labels = [draw_label(draw, (px(40), px(22)), "12:30", font(px(34)), colors["fg"]),
              draw_label(draw, (w - px(40), px(22)), "85%", font(px(34)), colors["fg"], anchor="ra")]
    title = "设置" if cjk else "Settings"
    labels.append(draw_label(draw, (px(48), px(130)), title, font(px(72), cjk, bold=not cjk), colors["fg"]))
    y = px(290)
    row_h = px(170)
    nav_top = h - px(170)
    sizes = (44, 48, 40, 52)
    for i, idx in enumerate(order):
        if y + row_h > nav_top - px(20):
            break
        title_size = px(sizes[i % len(sizes)])
        draw.ellipse((px(48), y + px(40), px(128), y + px(120)), fill=colors["accent"])
        labels.append(draw_label(draw, (px(170), y + px(28)), words[idx], font(title_size, cjk),
                                 colors["fg"]))
        labels.append(draw_label(draw, (px(170), y + px(34) + title_size + px(12)), subs[idx],
                                 font(px(34), cjk), colors["sub"]))
        y += row_h
    draw.rectangle((0, nav_top, w, h), fill=colors["bar"])
    nav = ["首页", "发现", "消息", "我的"] if cjk else ["Home", "Search", "Inbox", "Profile"]
    for i, name in enumerate(nav):
        cx = int(w * (2 * i + 1) / (2 * len(nav)))
        labels.append(draw_label(draw, (cx, nav_top + px(100)), name, font(px(36), cjk), colors["fg"],
                                 anchor="ma"))
        draw.rounded_rectangle((cx - px(30), nav_top + px(24), cx + px(30), nav_top + px(84)), px(12),
                               outline=colors["fg"], width=px(5))
    return SynthScreen(img, labels)


ICON_COLORS = [(219, 68, 55), (15, 157, 88), (66, 133, 244), (244, 180, 0), (171, 71, 188), (0, 172, 193),
               (255, 112, 67), (94, 53, 177)]


def render_launcher(apps: list[str], size: tuple[int, int] = (1080, 2400), theme: str = "light",
                    columns: int = 4, label_size: int = 34, icon_size: int = 150, top: int = 260,
                    row_gap: int = 300, label_gap: int = 28) -> SynthScreen:
    """A home screen: a grid of coloured rounded-square icons, each with its app name centred below."""
    w, _ = size
    colors = _theme(theme)
    img = Image.new("RGB", size, colors["bg"])
    draw = ImageDraw.Draw(img)
    labels = [draw_label(draw, (40, 22), "09:41", font(34), colors["fg"])]
    icons: dict[str, Box] = {}
    cell_w = w // columns
    for i, app in enumerate(apps):
        row, col = divmod(i, columns)
        cx = cell_w * col + cell_w // 2
        y = top + row * row_gap
        box = (cx - icon_size // 2, y, cx + icon_size // 2, y + icon_size)
        draw.rounded_rectangle(box, icon_size // 4, fill=ICON_COLORS[i % len(ICON_COLORS)])
        icons[app] = box
        cjk = any(ord(ch) > 0x2E80 for ch in app)
        labels.append(draw_label(draw, (cx, y + icon_size + label_gap), app, font(label_size, cjk),
                                 colors["fg"], anchor="ma"))
    return SynthScreen(img, labels, icons)
