// The table's sound player (src/guandan/server/static/sound.js) against stand-ins for the browser's
// Audio and localStorage: which files it asks for, overlapping plays, the mute switch, and refusals.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

class FakeAudio {
  static made = [];
  static played = [];
  static refuse = null;  // what play() does instead of starting: "reject" or "throw"

  constructor(src) {
    this.src = src;
    this.preload = "none";
    this.paused = true;
    this.ended = false;
    this.currentTime = 0;
    FakeAudio.made.push(this);
  }

  play() {
    if (FakeAudio.refuse === "throw") throw new Error("NotSupportedError");
    if (FakeAudio.refuse === "reject") return Promise.reject(new Error("NotAllowedError"));
    this.paused = false;
    FakeAudio.played.push(this);
    return Promise.resolve();
  }

  cloneNode() {
    const copy = new FakeAudio(this.src);
    copy.preload = this.preload;
    return copy;
  }
}

const storage = {
  items: new Map(),
  broken: false,
  getItem(key) {
    if (this.broken) throw new Error("SecurityError");
    return this.items.has(key) ? this.items.get(key) : null;
  },
  setItem(key, value) {
    if (this.broken) throw new Error("SecurityError");
    this.items.set(key, String(value));
  },
};

globalThis.Audio = FakeAudio;
globalThis.localStorage = storage;
const sound = await import("../../src/guandan/server/static/sound.js");
const preloaded = [...FakeAudio.made];

beforeEach(() => {
  FakeAudio.made.length = 0;
  FakeAudio.played.length = 0;
  FakeAudio.refuse = null;
  for (const el of preloaded) { el.paused = true; el.ended = false; }
  storage.items.clear();
  storage.broken = false;
});

describe("loading", () => {
  test("every sound is preloaded from /static/sounds/ when the module loads", () => {
    assert.deepEqual(sound.SOUND_NAMES, ["play", "bomb", "pass", "turn", "warn", "deal_end"]);
    assert.deepEqual(preloaded.map((el) => el.src), sound.SOUND_NAMES.map((n) => `/static/sounds/${n}.wav`));
    assert.ok(preloaded.every((el) => el.preload === "auto"));
  });

  test("preloading again fetches nothing new", () => {
    sound.preload();
    assert.equal(FakeAudio.made.length, 0);
  });
});

describe("play", () => {
  test("plays the preloaded element of the sound", () => {
    sound.play("bomb");
    assert.deepEqual(FakeAudio.played, [preloaded[1]]);
    assert.equal(FakeAudio.made.length, 0);
  });

  test("a sound still playing is not cut off: a copy plays alongside", () => {
    sound.play("play");
    sound.play("play");
    assert.equal(FakeAudio.played.length, 2);
    assert.equal(FakeAudio.played[0], preloaded[0]);
    assert.notEqual(FakeAudio.played[1], preloaded[0]);
    assert.equal(FakeAudio.played[1].src, "/static/sounds/play.wav");
  });

  test("a sound that ended plays its own element again, from the start", () => {
    sound.play("turn");
    preloaded[3].ended = true;
    preloaded[3].currentTime = 0.25;
    sound.play("turn");
    assert.deepEqual(FakeAudio.played, [preloaded[3], preloaded[3]]);
    assert.equal(preloaded[3].currentTime, 0);
  });

  test("an unknown name plays nothing", () => {
    sound.play("fanfare");
    sound.play(undefined);
    assert.equal(FakeAudio.played.length, 0);
    assert.equal(FakeAudio.made.length, 0);
  });

  test("the autoplay policy's refusal is swallowed", async () => {
    const unhandled = [];
    const listen = (reason) => unhandled.push(reason);
    process.on("unhandledRejection", listen);
    try {
      FakeAudio.refuse = "reject";
      assert.doesNotThrow(() => sound.play("warn"));
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("unhandledRejection", listen);
    }
    assert.deepEqual(unhandled, []);
  });

  test("an element that throws is swallowed", () => {
    FakeAudio.refuse = "throw";
    assert.doesNotThrow(() => sound.play("pass"));
  });
});

describe("mute", () => {
  test("not muted by default", () => {
    assert.equal(sound.muted(), false);
  });

  test("the choice is remembered in localStorage, and muted sounds do not play", () => {
    sound.setMuted(true);
    assert.equal(storage.items.get("guandan:mute"), "1");
    assert.equal(sound.muted(), true);
    sound.play("play");
    assert.equal(FakeAudio.played.length, 0);
    sound.setMuted(false);
    assert.equal(storage.items.get("guandan:mute"), "0");
    assert.equal(sound.muted(), false);
    sound.play("play");
    assert.equal(FakeAudio.played.length, 1);
  });

  test("a choice saved on an earlier visit is read back", () => {
    storage.items.set("guandan:mute", "1");
    assert.equal(sound.muted(), true);
  });

  test("with storage switched off the choice lasts for the page", () => {
    storage.broken = true;
    assert.doesNotThrow(() => sound.setMuted(true));
    assert.equal(sound.muted(), true);
    sound.setMuted(false);
    assert.equal(sound.muted(), false);
  });
});
