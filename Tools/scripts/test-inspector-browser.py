#!/usr/bin/env python3
"""PrismInspector in a real browser: headless Chromium driven by selenium.

Starts the fixture app (PrismInspectorFixture, given as the first argument), which attaches an
inspector to a store and sends a few actions, and checks what a person would see and do:

- the page loads with the token in the URL and is refused without it;
- it lists the actions the app sends, live;
- a secret in the state is shown redacted;
- clicking an earlier action's jump button puts the app's store back in that state;
- skipping an action recomputes the states without it; locking holds the app's actions until
  unlocking releases them; a shift-clicked range is written as a test; a second store joined to the inspector is one switch away;
- a selected action says where in the app's code it was sent from (the trace);
- the filter, an action typed as JSON, pausing and resuming, exporting the session and
  loading the file back work from the page's controls;
- 20,000 actions sent at 10,000 a second all reach the page, or the page is told how many it
  will never see (counted by a script that reads the page's WebSocket messages too).

Takes a screenshot of the page (second argument). Uses Chromium and its driver from Debian
(/usr/bin/chromium, /usr/bin/chromedriver): selenium downloads nothing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

SECRET = "s3cret-token"
BURST = 20_000
results = []

# Runs in the page before its own script (through the DevTools protocol, not the page's CSP):
# counts every action number the page's WebSocket receives and every action it is told it
# missed, as window.prismCounts.
COUNT_MESSAGES = """
(() => {
  const Native = window.WebSocket;
  const counts = { received: new Set(), dropped: 0, newest: -1 };
  window.prismCounts = counts;
  function Counting(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.type !== "actions") return;
      counts.dropped += message.dropped || 0;
      for (const entry of message.entries) {
        counts.received.add(entry.index);
        counts.newest = Math.max(counts.newest, entry.index);
      }
    });
    return socket;
  }
  Counting.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Counting[name] = Native[name];
  window.WebSocket = Counting;
})();
"""


def check(name, condition, detail=""):
    results.append((name, bool(condition)))
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else "  " + detail), flush=True)


class Fixture:
    """The app: a child process with a line protocol on its standard input and output."""

    def __init__(self, path):
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.url = self.read("URL ").strip()

    def read(self, prefix, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the fixture exited")
            if line.startswith(prefix):
                return line[len(prefix):]
        raise RuntimeError("the fixture did not print " + prefix)

    def send(self, action):
        self.process.stdin.write("send " + json.dumps(action) + "\n")
        self.read("SENT")

    def state(self):
        self.process.stdin.write("state\n")
        return json.loads(self.read("STATE "))

    def burst(self, count):
        """Sends `count` increments at 10,000 a second; returns the main actor's longest stall (ms)."""
        self.process.stdin.write("burst %d\n" % count)
        return float(self.read("BURST %d " % count))

    def quit(self):
        try:
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1440,900",
                     "--disable-gpu", "--no-first-run", "--disable-extensions"]:
        options.add_argument(argument)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def rows(driver):
    """The rows the list shows, as (index, text) pairs."""
    found = []
    for row in driver.find_elements(By.CSS_SELECTOR, "#rows .row"):
        try:
            found.append((int(row.get_attribute("data-index")), row.text))
        except StaleElementReferenceException:
            return None
    return found


def row_index(driver, text, after=0):
    """The index of the first row (after the first `after` ones) whose text contains `text`."""
    def find():
        found = rows(driver)
        if not found:
            return None
        matches = [index for index, row_text in found if text in row_text]
        return matches[after] + 1 if len(matches) > after else None
    return wait(driver, find) - 1


def wait(driver, condition, timeout=15):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda _: condition())


def click_row(driver, index, button=None):
    def attempt():
        try:
            row = driver.find_element(By.CSS_SELECTOR, '#rows .row[data-index="%d"]' % index)
            (row.find_element(By.CSS_SELECTOR, button) if button else row).click()
            return True
        except (StaleElementReferenceException, Exception):
            return False
    wait(driver, attempt)


def fixture_send_line():
    """The line of the fixture's source that sends its scripted actions (`store.send(action)`)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    source = os.path.join(root, "Packages/PrismInspector/Sources/PrismInspectorFixture/main.swift")
    with open(source, encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if line.strip() == "store.send(action)":
                return number
    raise RuntimeError("the fixture no longer sends its actions with store.send(action)")


def main():
    fixture_path, screenshot_path = sys.argv[1], sys.argv[2]
    fixture = Fixture(fixture_path)
    driver = browser()
    downloads = tempfile.mkdtemp(prefix="prism-inspector-downloads-")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    try:
        url = fixture.url
        origin = url.split("/", 3)
        base = origin[0] + "//" + origin[2]

        # Refused without the token, or with a wrong one.
        for address in [base + "/", base + "/index.html", base + "/" + "0" * 64 + "/"]:
            driver.get(address)
            body = driver.find_element(By.TAG_NAME, "body").text
            check("refused without the token: " + address.replace(base, ""),
                  "needs the token" in body and not driver.find_elements(By.ID, "list"), body[:200])

        # Loads with it, and shows the actions the app sent.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_MESSAGES})
        driver.get(url)
        wait(driver, lambda: (rows(driver) or []) and len(rows(driver)) >= 8)
        listed = rows(driver) or []
        texts = " | ".join(text for _, text in listed)
        check("the page loads with the token and lists the app's actions",
              all(name in texts for name in [".increment", '.add("milk")', ".setToken", ".startTimer"]), texts)
        check("the first entry notes that the inspector attached", "(inspector attached)" in listed[0][1], texts)

        # Live: an action the app sends now appears.
        fixture.send({"add": {"_0": "bread"}})
        wait(driver, lambda: '.add("bread")' in " ".join(text for _, text in (rows(driver) or [])))
        check("an action the app sends while the page is open appears", True)

        # Effects in flight: the timer the app started.
        wait(driver, lambda: "startTimer" in driver.find_element(By.ID, "effects").text)
        check("the effect in flight is listed", "startTimer" in driver.find_element(By.ID, "effects").text)

        # The secret is never on the page, in the list or in the state tree.
        token_row = row_index(driver, ".setToken")
        click_row(driver, token_row)
        wait(driver, lambda: "profile" in driver.find_element(By.ID, "state").text)
        driver.find_element(By.CSS_SELECTOR, "#state details details summary").click() \
            if not driver.find_elements(By.CSS_SELECTOR, "#state .secret") else None
        state_text = driver.find_element(By.ID, "state").text
        check("a secret in the state is shown redacted", "‹redacted›" in state_text and SECRET not in state_text,
              state_text)
        check("the secret is nowhere in the page", SECRET not in driver.page_source)

        # Time travel: the jump button of an earlier action puts the store back in that state.
        second = row_index(driver, ".increment", after=1)
        click_row(driver, second)
        click_row(driver, second, ".jump")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#rows .row.current[data-index="%d"]' % second))
        # The page marks the row when the inspector says it jumped, after it replaced the state.
        state = fixture.state()
        check("clicking an earlier action's jump puts the store back in that state",
              state["count"] == 2 and state["items"] == [], json.dumps(state))

        # Back to the newest state, and a screenshot with a diff on show.
        driver.find_element(By.ID, "latest").click()
        wait(driver, lambda: fixture.state()["items"] == ["milk", "eggs", "bread"])
        check("back to latest restores the newest state", True)
        eggs = row_index(driver, '.add("eggs")')
        click_row(driver, eggs)
        wait(driver, lambda: "items[1]" in driver.find_element(By.ID, "diff").text)
        check("the diff shows what an action changed", '+ "eggs"' in driver.find_element(By.ID, "diff").text,
              driver.find_element(By.ID, "diff").text)
        # The trace: where in the fixture's code the action was sent.
        wait(driver, lambda: "Sent from" in driver.find_element(By.ID, "sent-from").text)
        sent_from = driver.find_element(By.ID, "sent-from").text
        check("the selected action says where it was sent from",
              sent_from.startswith("Sent from PrismInspectorFixture/main.swift:%d" % fixture_send_line()), sent_from)
        os.makedirs(os.path.dirname(os.path.abspath(screenshot_path)), exist_ok=True)
        driver.save_screenshot(screenshot_path)
        check("screenshot saved to " + screenshot_path, os.path.getsize(screenshot_path) > 10_000)

        # The filter keeps the actions whose name matches.
        driver.find_element(By.ID, "filter").send_keys("add")
        wait(driver, lambda: rows(driver) and all(".add(" in text for _, text in rows(driver)))
        check("the filter shows only the actions named like it",
              len(rows(driver)) == 3, " | ".join(text for _, text in rows(driver) or []))
        driver.find_element(By.ID, "filter").clear()
        driver.find_element(By.ID, "filter").send_keys(" ")
        wait(driver, lambda: len(rows(driver) or []) > 3)

        # An action typed as JSON goes to the store.
        driver.find_element(By.ID, "action-json").send_keys('{"add": {"_0": "jam"}}')
        driver.find_element(By.ID, "send").click()
        wait(driver, lambda: "jam" in fixture.state()["items"])
        row_index(driver, '.add("jam")')
        check("an action typed as JSON on the page is sent to the store", True)

        # Skip: the row's skip button leaves the action out and the store takes the recomputed
        # state; unskip takes it back in.
        jam = row_index(driver, '.add("jam")')
        click_row(driver, jam)
        click_row(driver, jam, ".skip")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#rows .row.skipped[data-index="%d"]' % jam))
        state = fixture.state()
        check("skipping an action recomputes the states without it and the store takes the newest",
              "jam" not in state["items"] and state["items"][:3] == ["milk", "eggs", "bread"], json.dumps(state))
        click_row(driver, jam, ".skip")
        wait(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, '#rows .row.skipped'))
        check("unskipping takes the action back in", fixture.state()["items"][-1] == "jam",
              json.dumps(fixture.state()))

        # Lock: the app's actions are held (the page says how many) and released on unlock.
        driver.find_element(By.ID, "lock").click()
        wait(driver, lambda: driver.find_element(By.ID, "lock").text == "Unlock")
        fixture.send({"add": {"_0": "held"}})
        wait(driver, lambda: "1 action held" in driver.find_element(By.ID, "held").text)
        check("a locked app's action is held, and the page says so", "held" not in fixture.state()["items"],
              json.dumps(fixture.state()))
        driver.find_element(By.ID, "lock").click()
        wait(driver, lambda: "held" in fixture.state()["items"])
        row_index(driver, '.add("held")')
        check("unlocking releases the held action to the store and the list", True)

        # Write test: a range chosen with a shift-click becomes a PrismTestStore test on the page.
        milk = row_index(driver, '.add("milk")')
        click_row(driver, milk)
        eggs = row_index(driver, '.add("eggs")')
        row = driver.find_element(By.CSS_SELECTOR, '#rows .row[data-index="%d"]' % eggs)
        webdriver.ActionChains(driver).key_down(Keys.SHIFT).click(row).key_up(Keys.SHIFT).perform()
        wait(driver, lambda: "Write test (#%d" % milk in driver.find_element(By.ID, "write-test").text)
        driver.find_element(By.ID, "write-test").click()
        wait(driver, lambda: "PrismTestStore(" in driver.find_element(By.ID, "test-source").get_attribute("value"))
        source = driver.find_element(By.ID, "test-source").get_attribute("value")
        check("a shift-clicked range is written as a test of each of its actions",
              source.count("try await store.send(") == eggs - milk + 1 and '"add":{"_0":"eggs"}' in source,
              source[:400])

        # Several stores, one page: the fixture's background store joined the inspector; the
        # page switches to it and back.
        stores = driver.find_element(By.ID, "stores")
        check("the page lists both stores", stores.is_displayed()
              and [option.text for option in stores.find_elements(By.TAG_NAME, "option")] == ["FixtureState", "Background"],
              stores.get_attribute("outerHTML"))
        Select(stores).select_by_visible_text("Background")
        wait(driver, lambda: ".refreshed" in " ".join(text for _, text in (rows(driver) or [])))
        listed = " ".join(text for _, text in (rows(driver) or []))
        check("switching shows the other store's actions only", ".add(" not in listed, listed)
        Select(driver.find_element(By.ID, "stores")).select_by_visible_text("FixtureState")
        wait(driver, lambda: '.add("held")' in " ".join(text for _, text in (rows(driver) or [])))
        check("switching back shows the first store again", True)

        # Paused, the page lists nothing new; resuming notes how many actions it missed.
        driver.find_element(By.ID, "record").click()
        wait(driver, lambda: driver.find_element(By.ID, "record").text == "Resume recording")
        fixture.send({"increment": {}})
        driver.find_element(By.ID, "record").click()
        wait(driver, lambda: driver.find_element(By.ID, "record").text == "Pause recording")
        resumed = row_index(driver, "resumed")
        listed = dict(rows(driver) or [])
        check("pausing records nothing; resuming notes the actions not recorded",
              "1 action was not recorded" in listed[resumed] and not any(index > resumed for index in listed),
              listed[resumed])

        # Export: the file is a PrismSessionRecording from the last note (the resume).
        fixture.send({"add": {"_0": "tea"}})
        row_index(driver, '.add("tea")')
        driver.find_element(By.ID, "export").click()
        exported = wait(driver, lambda: [name for name in os.listdir(downloads) if name.endswith(".json")])
        with open(os.path.join(downloads, exported[0])) as file:
            recording = json.load(file)
        check("export downloads the session as a recording of the actions since the last note",
              [entry["action"] for entry in recording["entries"]] == [{"add": {"_0": "tea"}}]
              and "tea" not in recording["initialState"]["items"], json.dumps(recording)[:300])

        # Load: the store goes back to the file's last state, whatever happened since.
        fixture.send({"add": {"_0": "extra"}})
        row_index(driver, '.add("extra")')
        # The file input hides behind its label, as file inputs do; a person clicks the label.
        driver.execute_script("document.getElementById('load').style.display = 'block';")
        driver.find_element(By.ID, "load").send_keys(os.path.join(downloads, exported[0]))
        wait(driver, lambda: "extra" not in fixture.state()["items"])
        state = fixture.state()
        check("loading the file puts the store in its last state and lists its actions",
              state["items"][-1] == "tea" and "Loaded 1 actions" in driver.find_element(By.ID, "messages").text,
              json.dumps(state))

        # A stream of 10,000 actions a second: every action reaches the page or is reported.
        # Clicking a row stopped following new actions; follow them again.
        follow = driver.find_element(By.ID, "follow")
        if not follow.is_selected():
            follow.click()
        before, dropped_before = driver.execute_script(
            "return [window.prismCounts.newest, window.prismCounts.dropped]")
        stall = fixture.burst(BURST)
        last = before + BURST
        wait(driver, lambda: driver.execute_script("return window.prismCounts.newest") >= last, timeout=30)
        received, dropped_total = driver.execute_script(
            "const c = window.prismCounts;"
            "return [[...c.received].filter((i) => i > arguments[0] && i <= arguments[1]).length, c.dropped];",
            before, last)
        dropped = dropped_total - dropped_before
        banner = driver.find_element(By.ID, "banner")
        check("%d actions at 10,000/s: each reached the page or was reported dropped (%d received, %d dropped;"
              " the app's longest main-actor stall: %.1f ms)" % (BURST, received, dropped, stall),
              received + dropped == BURST, "%d unaccounted for" % (BURST - received - dropped))
        check("the page says how many actions it did not get, if any",
              dropped_total == 0 or (banner.is_displayed() and "%d" % dropped_total in banner.text.replace(",", "")),
              banner.text)
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#rows .row[data-index="%d"]' % last))
        check("the page follows the stream to its newest action", True)
    finally:
        driver.quit()
        fixture.quit()
        shutil.rmtree(downloads, ignore_errors=True)

    failed = sum(1 for _, ok in results if not ok)
    print("browser test: %d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
