"""Every Mobile-Eval scenario on SimPhone's look-alike apps, driven through the UI dump like an agent,
with the effect checked in ``state()`` (the benchmark's oracle)."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())


def test_shop_search_caps_and_add_to_cart(ui: Driver) -> None:
    ui.d.open_app("Shop")
    ui.type_into("search_box", "caps", submit=True)
    titles = [e.text for e in ui.elements() if e.resource_id.endswith("/title")]
    assert len(titles) == 3 and all("Cap" in t for t in titles)
    ui.tap(titles[0])
    ui.tap("Add to cart")
    assert ui.has("Added to cart")
    cart = ui.d.state()["shop"]["cart"]
    assert [c["id"] for c in cart] == ["cap_classic"]
    assert ui.find(rid="badge").text == "1"
    ui.tap(desc="Cart")
    assert ui.screen() == "cart" and ui.has("Cart (1)")
    assert ui.d.state()["shop"]["queries"] == ["caps"]


def test_music_artist_and_agent_song(ui: Driver) -> None:
    ui.d.open_app("Music")
    ui.type_into("search_box", "Jay Chou", submit=True)
    ui.tap("Artist · Mandopop")
    assert ui.screen() == "artist" and ui.has("Sunny Day")
    ui.d.key("back")
    ui.d.key("back")
    ui.find(rid="search_box")
    ui.type_into("search_box", "agent", submit=True)
    songs = [e.text for e in ui.elements() if e.resource_id.endswith("/title")]
    assert "Secret Agent" in songs
    ui.tap("Secret Agent")
    st = ui.d.state()["music"]
    assert st["playing"]["name"] == "Secret Agent" and st["paused"] is False
    assert st["queries"] == ["Jay Chou", "agent"]
    ui.d.key("back")
    assert ui.find(rid="play_bar") is not None


def test_browser_lakers_score_and_taylor_swift(ui: Driver) -> None:
    ui.d.open_app("Browser")
    ui.type_into("search_box", "today's Lakers game", submit=True)
    assert ui.has("Lakers 118 - 112 Warriors")
    ui.d.key("back")
    ui.type_into("search_box", "Taylor Swift", submit=True)
    ui.tap("Taylor Swift - Biography")
    body = ui.find(rid="page_body").text
    assert "born December 13, 1989" in body
    st = ui.d.state()["browser"]
    assert st["queries"] == ["today's Lakers game", "Taylor Swift"]
    assert st["visited"] == ["en.wikipedia.org › wiki › Taylor_Swift"]


def test_browser_other_queries_get_generic_results(ui: Driver) -> None:
    ui.d.open_app("browser")
    ui.type_into("search_box", "zzqx", submit=True)
    assert ui.has("zzqx - Wikipedia") and ui.has("zzqx - Latest news")
    ui.tap("zzqx - Wikipedia")
    assert ui.find(rid="page_body").text == "This encyclopedia article is about zzqx."


def test_mail_empty_email_asks_then_sends(ui: Driver) -> None:
    ui.d.open_app("Mail")
    ui.tap("Compose")
    assert ui.find(rid="to").focused  # the To field has focus and the keyboard is up
    ui.d.type_text("friend@example.com")
    ui.tap(desc="Send")
    assert ui.has("Send this message without text in subject or body?")
    ui.tap("OK")
    assert ui.d.state()["mail"]["sent"] == [{"to": "friend@example.com", "subject": "", "body": ""}]
    assert ui.screen() == "inbox"
    ui.tap("Sent")
    assert ui.has("To: friend@example.com")


def test_mail_with_body_and_missing_recipient(ui: Driver) -> None:
    ui.d.open_app("mail")
    ui.tap("Compose")
    ui.tap(desc="Send")
    assert ui.has("Add at least one recipient") and ui.screen() == "compose"
    ui.type_into("to", "boss@example.com")
    ui.d.key("enter")  # the keyboard's Next action moves on to Subject, then to the body
    ui.d.type_text("My new work")
    ui.d.key("enter")
    assert ui.find(rid="body").focused
    ui.d.type_text("I started a new job as a data engineer.")
    ui.tap(desc="Send")
    assert ui.d.state()["mail"]["sent"][-1] == {"to": "boss@example.com", "subject": "My new work",
                                                "body": "I started a new job as a data engineer."}


def test_mail_inbox_rows_have_three_lines_and_categories_sit_above_the_mail(ui: Driver) -> None:
    ui.d.open_app("mail")
    rows = [e for e in ui.elements() if e.resource_id.endswith("id/mail_item")]
    details = [e.text for e in ui.elements() if e.resource_id.endswith("id/detail")]
    assert len(rows) == 3 and details == [m["body"] for m in ui.d.state()["mail"]["inbox"]]
    first = ui.find("Team Calendar").bounds
    assert ui.find("Promotions").bounds[1] < ui.find("Social").bounds[1] < first[1]
    summary = ui.find("Weekly sync moved to Thursday").bounds
    snippet = ui.find(ui.d.state()["mail"]["inbox"][0]["body"]).bounds
    assert first[1] < summary[1] < snippet[1]  # sender, subject, then the body's first words
    ui.tap("Team Calendar")
    assert ui.screen() == "message"


def test_maps_navigate_to_west_lake(ui: Driver) -> None:
    ui.d.open_app("Maps")
    ui.type_into("search_box", "Hangzhou West Lake", submit=True)
    ui.tap("Hangzhou West Lake", rid="title")
    ui.tap("Directions")
    assert ui.has("18 min (6.2 km)")
    ui.tap("Start")
    st = ui.d.state()["maps"]
    assert st["navigation"] == {"destination": "Hangzhou West Lake", "place_id": "west_lake", "mode": "Drive",
                                "started": True}
    assert ui.has("Navigating to Hangzhou West Lake")


def test_maps_nearby_gas_station(ui: Driver) -> None:
    ui.d.open_app("Maps")
    ui.type_into("search_box", "gas station", submit=True)
    names = [e.text for e in ui.elements() if e.resource_id.endswith("/title")]
    assert names == ["Shell Gas Station", "Sinopec Gas Station"]
    ui.tap("Shell Gas Station", rid="title")
    ui.tap("Start")
    assert ui.d.state()["maps"]["navigation"]["destination"] == "Shell Gas Station"


@pytest.mark.parametrize("query,app,package", [("WhatsApp", "whatsapp", "com.whatsapp"),
                                               ("Instagram", "instagram", "com.instagram.android")])
def test_store_install_progress_notification_open(ui: Driver, query: str, app: str, package: str) -> None:
    with pytest.raises(Exception, match="not installed"):
        ui.d.open_app(app)
    ui.d.open_app("Store")
    ui.type_into("search_box", query, submit=True)
    ui.tap(rid="title")
    ui.tap("Install")
    assert ui.has("Downloading... 40%") and ui.find("Open").bounds is not None
    assert ui.d.state()["system"]["installing"] == [app]
    ui.d.wait(1)
    assert app in ui.d.state()["system"]["installed_apps"]
    assert ui.has("Download complete. Tap to open.")  # heads-up notification
    assert ui.d.state()["system"]["notifications"][-1]["app"] == app
    ui.tap("Open")
    assert ui.d.current_app() == package
    ui.d.key("home")
    ui.tap({"whatsapp": "WhatsApp", "instagram": "Instagram"}[app])  # its icon is on the home screen now
    assert ui.d.current_app() == package


def test_notes_create_write_save(ui: Driver) -> None:
    ui.d.open_app("Notes")
    ui.tap(desc="New note")
    assert ui.screen() == "edit" and ui.find(rid="body").focused
    ui.d.type_text("Hello, this is a note")
    ui.tap(desc="Save")
    assert ui.d.state()["notes"]["notes"][-1] == {"title": "", "body": "Hello, this is a note"}
    assert ui.has("Note saved") and ui.has("Hello, this is a note")


def test_notes_back_saves_and_empty_is_discarded(ui: Driver) -> None:
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.d.type_text("meeting at 3pm")
    ui.d.key("back")  # hides the keyboard first, as on Android
    assert ui.screen() == "edit"
    ui.d.key("back")
    assert ui.d.state()["notes"]["notes"][-1]["body"] == "meeting at 3pm"
    ui.tap(desc="New note")
    ui.tap(desc="Save")
    assert len(ui.d.state()["notes"]["notes"]) == 2 and ui.has("Empty note discarded")


def test_settings_dark_mode_airplane_and_network_speed(ui: Driver) -> None:
    ui.d.open_app("Settings")
    light = ui.d.screenshot().getpixel((540, 1200))
    ui.tap("Display")
    ui.tap("Dark mode")
    assert ui.d.state()["settings"]["dark_mode"] is True and ui.d.state()["system"]["dark_mode"] is True
    assert sum(ui.d.screenshot().getpixel((540, 1500))) < 100 < sum(light)
    ui.d.key("back")
    ui.tap("Network & internet")
    ui.tap("Airplane mode")
    st = ui.d.state()["settings"]
    assert st["airplane_mode"] is True and st["wifi"] is False
    assert ui.find("Airplane mode").text and any(e.checked for e in ui.elements() if e.cls.endswith("Switch"))
    ui.d.key("back")
    before = ui.d.screenshot().crop((300, 0, 900, 100))
    ui.tap("Notifications & status bar")
    ui.tap("Show network speed")
    assert ui.d.state()["settings"]["show_network_speed"] is True
    assert ui.d.screenshot().crop((300, 0, 900, 100)).tobytes() != before.tobytes()


def test_clips_swipe_to_pet_cat_like_and_comment(ui: Driver) -> None:
    ui.d.open_app("Clips")
    liked = 0
    for _ in range(8):  # the feed has 8 videos; the seed decides their order
        caption = ui.find(rid="caption").text
        if "pet cat" in caption.lower() and liked < 3:
            ui.tap(desc="Like")
            liked += 1
            if liked == 1:
                ui.tap(desc="Comments")
                assert ui.screen() == "comments"
                ui.type_into("comment_input", "Ohhhh, so cute cat!")
                ui.tap(desc="Post comment")
                assert ui.has("Ohhhh, so cute cat!")
                ui.d.key("back")
                assert ui.screen() == "feed"
        ui.d.swipe(540, 1700, 540, 600, 200)
    st = ui.d.state()["clips"]
    assert len(st["likes"]) == 3 and all("pet cat" in v["caption"].lower() for v in st["liked"])
    first = st["comments"][0]
    assert first["text"] == "Ohhhh, so cute cat!" and "pet cat" in first["caption"].lower()


def test_clips_like_toggles(ui: Driver) -> None:
    ui.d.open_app("clips")
    ui.tap(desc="Like")
    assert ui.find(desc="Like").checked
    ui.tap(desc="Like")
    assert ui.d.state()["clips"]["likes"] == [] and not ui.find(desc="Like").checked


def test_tube_search_curry_and_comment(ui: Driver) -> None:
    ui.d.open_app("Tube")
    ui.tap(desc="Search")
    assert ui.find(rid="search_box").focused
    ui.d.type_text("Stephen Curry")
    ui.d.key("enter")
    titles = [e.text for e in ui.elements() if e.resource_id.endswith("/title")]
    assert len(titles) == 3 and all("Curry" in t for t in titles)
    ui.tap(titles[0])
    ui.tap("Comments")
    text = "Oh, chef, your basketball spirit has always inspired me"
    ui.type_into("comment_input", text)
    ui.d.key("enter")
    st = ui.d.state()["tube"]
    assert st["comments"] == [{"video": "curry_threes", "title": titles[0], "text": text}]
    assert st["queries"] == ["Stephen Curry"]
    ui.d.key("back")
    ui.tap("Like")
    ui.tap("Subscribe")
    st = ui.d.state()["tube"]
    assert st["likes"] == ["curry_threes"] and st["subscriptions"] == ["NBA Highlights"]


def test_calendar_today_follows_the_date_setting() -> None:
    ui = Driver(SimDevice(date="2027-03-05"))
    assert ui.d.state()["calendar"]["viewed_today"] is False
    ui.d.open_app("Calendar")
    assert ui.d.state()["calendar"]["viewed_today"] is True
    assert ui.has("Today is Friday, March 5, 2027") and ui.has("March 2027")
    assert any(e.selected and e.content_desc == "Friday, March 5" for e in ui.elements())
    ui.d.set_clock(date="2026-11-22")
    assert ui.has("Today is Sunday, November 22, 2026")


def test_weather_five_day_forecast_then_note(ui: Driver) -> None:
    ui.d.open_app("Weather")
    assert ui.d.state()["weather"]["viewed_forecast"] is True
    days = [ui.find(rid=f"day_{i}") for i in range(5)]
    assert [d.content_desc for d in days] == [""] * 5
    assert ui.has("Today") and ui.has("Mon") and ui.has("21° / 13°") and ui.has("20° / 11°")
    ui.d.open_app("Notes")
    ui.tap(desc="New note")
    ui.d.type_text("Warm then cooler: 21, 23, 19, 16, 20 degrees.")
    ui.tap(desc="Save")
    assert "21, 23" in ui.d.state()["notes"]["notes"][-1]["body"]


def test_chat_app_chinese_tabs_and_send(ui: Driver) -> None:
    ui.d.open_app("微聊")
    for tab, title in (("通讯录", "新的朋友"), ("发现", "朋友圈"), ("我", "收藏"), ("聊天", "张伟")):
        ui.tap(desc=tab)
        assert ui.has(title)
    ui.tap("张伟")
    ui.type_into("message_input", "好的，明天见")
    ui.tap("发送")
    assert ui.d.state()["chat"]["sent"] == [{"to": "zhangwei", "name": "张伟", "text": "好的，明天见"}]
    assert ui.has("好的，明天见") and ui.find(rid="message_input").text == "输入消息"


def test_video_app_search_bangumi_like_comment(ui: Driver) -> None:
    ui.d.open_app("星视频")
    ui.type_into("search_box", "代理人")
    ui.tap("搜索")
    assert ui.find("综合").selected
    ui.tap("番剧")
    assert ui.find("番剧").selected and ui.has("时光代理人")
    ui.tap("时光代理人")
    ui.tap("点赞")
    ui.type_into("comment_input", "太好看了")
    ui.tap("发送")
    st = ui.d.state()["video"]
    assert st["likes"] == ["xiaoshenke"] and st["comments"][0]["text"] == "太好看了"
    assert st["queries"] == ["代理人"] and st["history"] == ["xiaoshenke"]
