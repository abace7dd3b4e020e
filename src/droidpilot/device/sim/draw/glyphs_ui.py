"""Small interface glyphs (arrows, check, plus, wifi, battery...) registered into ``glyphs.GLYPHS``."""

from __future__ import annotations

import math

from droidpilot.device.sim.draw.glyphs import _box, glyph


@glyph("back")
def _back(d, u, w):
    d.polygon([u(.3, .5), u(.72, .22), u(.72, .78)], outline=255, width=int(w * .8))


@glyph("home")
def _home(d, u, w):
    d.ellipse(_box(u, .24, .24, .76, .76), outline=255, width=int(w * .8))


@glyph("recents")
def _recents(d, u, w):
    d.rounded_rectangle(_box(u, .26, .26, .74, .74), radius=u(.06, 0)[0] - u(0, 0)[0], outline=255,
                        width=int(w * .8))


@glyph("arrow_back")
def _arrow_back(d, u, w):
    d.line([u(.2, .5), u(.82, .5)], fill=255, width=int(w))
    d.line([u(.5, .2), u(.2, .5), u(.5, .8)], fill=255, width=int(w), joint="curve")


@glyph("check")
def _check(d, u, w):
    d.line([u(.16, .52), u(.4, .76), u(.86, .26)], fill=255, width=int(w * 1.2), joint="curve")


@glyph("plus")
def _plus(d, u, w):
    d.line([u(.5, .18), u(.5, .82)], fill=255, width=int(w * 1.1))
    d.line([u(.18, .5), u(.82, .5)], fill=255, width=int(w * 1.1))


@glyph("close")
def _close(d, u, w):
    d.line([u(.22, .22), u(.78, .78)], fill=255, width=int(w))
    d.line([u(.78, .22), u(.22, .78)], fill=255, width=int(w))


@glyph("chevron")
def _chevron(d, u, w):
    d.line([u(.38, .2), u(.66, .5), u(.38, .8)], fill=255, width=int(w), joint="curve")


@glyph("more")
def _more(d, u, w):
    for y in (.22, .5, .78):
        d.ellipse(_box(u, .42, y - .08, .58, y + .08), fill=255)


@glyph("menu")
def _menu(d, u, w):
    for y in (.28, .5, .72):
        d.line([u(.16, y), u(.84, y)], fill=255, width=int(w))


@glyph("share")
def _share(d, u, w):
    d.polygon([u(.1, .82), u(.2, .48), u(.56, .36), u(.56, .14), u(.92, .46), u(.56, .78), u(.56, .56),
               u(.3, .6)], fill=255)


@glyph("comment")
def _comment(d, u, w):
    d.rounded_rectangle(_box(u, .1, .14, .9, .7), radius=u(.16, 0)[0] - u(0, 0)[0], fill=255)
    d.polygon([u(.26, .66), u(.48, .66), u(.26, .88)], fill=255)
    for x in (.32, .5, .68):
        d.ellipse(_box(u, x - .05, .37, x + .05, .47), fill=0)


@glyph("send")
def _send(d, u, w):
    d.polygon([u(.1, .14), u(.92, .5), u(.1, .86), u(.2, .54), u(.56, .5), u(.2, .46)], fill=255)


@glyph("star")
def _star(d, u, w):
    pts = []
    for i in range(10):
        r = .42 if i % 2 == 0 else .18
        a = -math.pi / 2 + math.pi * i / 5
        pts.append(u(.5 + r * math.cos(a), .54 + r * math.sin(a)))
    d.polygon(pts, fill=255)


@glyph("mic")
def _mic(d, u, w):
    d.rounded_rectangle(_box(u, .38, .1, .62, .6), radius=u(.12, 0)[0] - u(0, 0)[0], fill=255)
    d.arc(_box(u, .26, .3, .74, .74), 0, 180, fill=255, width=int(w * .8))
    d.line([u(.5, .74), u(.5, .9)], fill=255, width=int(w * .8))


@glyph("wifi")
def _wifi(d, u, w):
    d.pieslice(_box(u, .02, .1, .98, 1.06), 225, 315, fill=255)


@glyph("bluetooth")
def _bluetooth(d, u, w):
    d.line([u(.28, .3), u(.72, .68), u(.5, .88), u(.5, .12), u(.72, .32), u(.28, .7)], fill=255,
           width=int(w * .8), joint="curve")


@glyph("airplane")
def _airplane(d, u, w):
    d.polygon([u(.46, .08), u(.54, .08), u(.56, .4), u(.92, .6), u(.92, .68), u(.56, .56), u(.55, .78),
               u(.66, .88), u(.66, .94), u(.5, .9), u(.34, .94), u(.34, .88), u(.45, .78), u(.44, .56),
               u(.08, .68), u(.08, .6), u(.44, .4)], fill=255)


@glyph("moon")
def _moon(d, u, w):
    d.ellipse(_box(u, .14, .14, .86, .86), fill=255)
    d.ellipse(_box(u, .36, .02, 1.0, .66), fill=0)


@glyph("info")
def _info(d, u, w):
    d.ellipse(_box(u, .1, .1, .9, .9), fill=255)
    d.rectangle(_box(u, .45, .42, .55, .74), fill=0)
    d.ellipse(_box(u, .44, .24, .56, .36), fill=0)


@glyph("person")
def _person(d, u, w):
    d.ellipse(_box(u, .32, .1, .68, .46), fill=255)
    d.pieslice(_box(u, .14, .52, .86, 1.2), 180, 360, fill=255)


@glyph("contacts")
def _contacts(d, u, w):
    d.rounded_rectangle(_box(u, .16, .1, .84, .9), radius=u(.08, 0)[0] - u(0, 0)[0], fill=255)
    d.ellipse(_box(u, .38, .24, .62, .48), fill=0)
    d.pieslice(_box(u, .28, .54, .72, .92), 180, 360, fill=0)


@glyph("compass")
def _compass(d, u, w):
    d.ellipse(_box(u, .1, .1, .9, .9), outline=255, width=int(w))
    d.polygon([u(.64, .36), u(.56, .56), u(.36, .64), u(.44, .44)], fill=255)


@glyph("thumb")
def _thumb(d, u, w):
    d.rectangle(_box(u, .12, .44, .28, .88), fill=255)
    d.polygon([u(.34, .44), u(.5, .12), u(.6, .16), u(.56, .4), u(.86, .4), u(.88, .5), u(.78, .88),
               u(.34, .88)], fill=255)


@glyph("navigate")
def _navigate(d, u, w):
    d.polygon([u(.5, .08), u(.84, .9), u(.5, .7), u(.16, .9)], fill=255)


@glyph("directions")
def _directions(d, u, w):
    d.polygon([u(.5, .04), u(.96, .5), u(.5, .96), u(.04, .5)], fill=255)
    d.line([u(.36, .66), u(.36, .46), u(.62, .46)], fill=0, width=int(w * .7))
    d.polygon([u(.6, .34), u(.74, .46), u(.6, .58)], fill=0)


@glyph("download")
def _download(d, u, w):
    d.line([u(.5, .12), u(.5, .62)], fill=255, width=int(w))
    d.line([u(.28, .42), u(.5, .64), u(.72, .42)], fill=255, width=int(w), joint="curve")
    d.line([u(.18, .84), u(.82, .84)], fill=255, width=int(w))


@glyph("pencil")
def _pencil(d, u, w):
    d.polygon([u(.66, .12), u(.88, .34), u(.36, .86), u(.12, .88), u(.14, .64)], fill=255)
    d.line([u(.58, .2), u(.8, .42)], fill=0, width=int(w * .5))


@glyph("inbox")
def _inbox(d, u, w):
    d.rectangle(_box(u, .14, .2, .86, .82), outline=255, width=int(w))
    d.line([u(.14, .56), u(.36, .56), u(.42, .66), u(.58, .66), u(.64, .56), u(.86, .56)], fill=255,
           width=int(w))


@glyph("trash")
def _trash(d, u, w):
    d.rectangle(_box(u, .24, .3, .76, .88), fill=255)
    d.rectangle(_box(u, .16, .18, .84, .26), fill=255)
    d.rectangle(_box(u, .4, .1, .6, .18), fill=255)


@glyph("bell")
def _bell(d, u, w):
    d.pieslice(_box(u, .2, .14, .8, .9), 180, 360, fill=255)
    d.rectangle(_box(u, .2, .5, .8, .74), fill=255)
    d.rectangle(_box(u, .12, .72, .88, .78), fill=255)
    d.ellipse(_box(u, .42, .78, .58, .92), fill=255)


@glyph("brightness")
def _brightness(d, u, w):
    d.ellipse(_box(u, .2, .2, .8, .8), outline=255, width=int(w))
    d.pieslice(_box(u, .2, .2, .8, .8), 90, 270, fill=255)


@glyph("speed")
def _speed(d, u, w):
    d.arc(_box(u, .08, .16, .92, 1.0), 180, 360, fill=255, width=int(w))
    d.line([u(.5, .58), u(.72, .32)], fill=255, width=int(w))


@glyph("pause")
def _pause(d, u, w):
    d.rectangle(_box(u, .26, .18, .42, .82), fill=255)
    d.rectangle(_box(u, .58, .18, .74, .82), fill=255)


@glyph("next")
def _next(d, u, w):
    d.polygon([u(.2, .2), u(.64, .5), u(.2, .8)], fill=255)
    d.rectangle(_box(u, .68, .2, .8, .8), fill=255)


@glyph("prev")
def _prev(d, u, w):
    d.polygon([u(.8, .2), u(.36, .5), u(.8, .8)], fill=255)
    d.rectangle(_box(u, .2, .2, .32, .8), fill=255)


@glyph("location")
def _location(d, u, w):
    d.ellipse(_box(u, .2, .2, .8, .8), outline=255, width=int(w))
    d.ellipse(_box(u, .38, .38, .62, .62), fill=255)
    for a, b in (((.5, .04), (.5, .2)), ((.5, .8), (.5, .96)), ((.04, .5), (.2, .5)), ((.8, .5), (.96, .5))):
        d.line([u(*a), u(*b)], fill=255, width=int(w * .8))


@glyph("shift")
def _shift(d, u, w):
    d.polygon([u(.5, .14), u(.88, .54), u(.66, .54), u(.66, .86), u(.34, .86), u(.34, .54), u(.12, .54)],
              outline=255, width=int(w * .7))


@glyph("backspace")
def _backspace(d, u, w):
    d.polygon([u(.06, .5), u(.3, .2), u(.94, .2), u(.94, .8), u(.3, .8)], outline=255, width=int(w * .7))
    d.line([u(.46, .36), u(.74, .64)], fill=255, width=int(w * .7))
    d.line([u(.74, .36), u(.46, .64)], fill=255, width=int(w * .7))


@glyph("enter")
def _enter(d, u, w):
    d.line([u(.8, .2), u(.8, .62), u(.22, .62)], fill=255, width=int(w), joint="curve")
    d.line([u(.4, .44), u(.22, .62), u(.4, .8)], fill=255, width=int(w), joint="curve")


@glyph("cat")
def _cat(d, u, w):
    d.polygon([u(.14, .1), u(.42, .3), u(.2, .5)], fill=255)
    d.polygon([u(.86, .1), u(.58, .3), u(.8, .5)], fill=255)
    d.ellipse(_box(u, .12, .24, .88, .9), fill=255)
    d.ellipse(_box(u, .3, .46, .42, .58), fill=0)
    d.ellipse(_box(u, .58, .46, .7, .58), fill=0)
    d.polygon([u(.45, .66), u(.55, .66), u(.5, .72)], fill=0)


@glyph("dog")
def _dog(d, u, w):
    d.ellipse(_box(u, .22, .18, .78, .86), fill=255)
    d.ellipse(_box(u, .04, .2, .3, .62), fill=255)
    d.ellipse(_box(u, .7, .2, .96, .62), fill=255)
    d.ellipse(_box(u, .34, .4, .44, .5), fill=0)
    d.ellipse(_box(u, .56, .4, .66, .5), fill=0)
    d.ellipse(_box(u, .42, .6, .58, .72), fill=0)


@glyph("basketball")
def _basketball(d, u, w):
    d.ellipse(_box(u, .08, .08, .92, .92), fill=255)
    d.line([u(.08, .5), u(.92, .5)], fill=0, width=int(w * .6))
    d.line([u(.5, .08), u(.5, .92)], fill=0, width=int(w * .6))
    d.arc(_box(u, -.3, .1, .34, .9), 300, 60, fill=0, width=int(w * .6))
    d.arc(_box(u, .66, .1, 1.3, .9), 120, 240, fill=0, width=int(w * .6))


@glyph("food")
def _food(d, u, w):
    d.pieslice(_box(u, .08, .1, .92, .9), 0, 180, fill=255)
    d.rectangle(_box(u, .06, .46, .94, .52), fill=255)


@glyph("mountain")
def _mountain(d, u, w):
    d.polygon([u(.04, .86), u(.38, .3), u(.56, .58), u(.7, .42), u(.96, .86)], fill=255)
    d.ellipse(_box(u, .66, .1, .84, .28), fill=255)


@glyph("cap")
def _cap(d, u, w):
    d.pieslice(_box(u, .14, .2, .78, .84), 180, 360, fill=255)
    d.polygon([u(.14, .52), u(.96, .52), u(.86, .64), u(.14, .64)], fill=255)


@glyph("house")
def _house(d, u, w):
    d.polygon([u(.5, .1), u(.92, .48), u(.8, .48), u(.8, .88), u(.2, .88), u(.2, .48), u(.08, .48)], fill=255)
    d.rectangle(_box(u, .42, .6, .58, .88), fill=0)


@glyph("calculator")
def _calculator(d, u, w):
    d.rounded_rectangle(_box(u, .2, .08, .8, .92), radius=u(.08, 0)[0] - u(0, 0)[0], outline=255,
                        width=int(w * .8))
    d.rectangle(_box(u, .3, .18, .7, .34), fill=255)
    for cx in (.34, .5, .66):
        for cy in (.48, .64, .8):
            d.ellipse(_box(u, cx - .05, cy - .05, cx + .05, cy + .05), fill=255)


def _folder_shape(d, u, w):
    d.polygon([u(.1, .26), u(.4, .26), u(.48, .34), u(.9, .34), u(.9, .8), u(.1, .8)], fill=255)


@glyph("folder")
def _folder(d, u, w):
    _folder_shape(d, u, w)


@glyph("folder_new")
def _folder_new(d, u, w):
    _folder_shape(d, u, w)
    d.line([u(.5, .44), u(.5, .7)], fill=0, width=int(w * .8))
    d.line([u(.37, .57), u(.63, .57)], fill=0, width=int(w * .8))


@glyph("checkbox")
def _checkbox(d, u, w):
    d.rectangle(_box(u, .18, .18, .82, .82), outline=255, width=int(w))


@glyph("checkbox_done")
def _checkbox_done(d, u, w):
    d.rectangle(_box(u, .18, .18, .82, .82), fill=255)
    d.line([u(.3, .52), u(.45, .66), u(.72, .36)], fill=0, width=int(w), joint="curve")
