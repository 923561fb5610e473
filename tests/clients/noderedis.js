// noderedis.js PORT — node-redis 4 and 5 (npm "redis", installed as redis4 and redis5) and
// redis-semaphore 5 (its Mutex, on ioredis) against a Redis on PORT, printing one line per
// step, so that the same run against redis-server and against `locklab serve --clock wall`
// can be compared line by line (tests/cli/test_serve.sh).
//   node-redis: its handshake, SET/GET, SET NX PX, a MULTI, a hash, EVAL, a subscriber's
//   message, and scanIterator over 120 keys (node-redis 4 reads SCAN's cursor as a
//   JavaScript number: a cursor past 2^53 would lose keys);
//   redis-semaphore: a Mutex acquired, refused to another holder, released, then taken by it.
"use strict";
const port = Number(process.argv[2]);
const say = (what, value) => console.log(`${what}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

async function nodeRedis(name) {
  const { createClient } = require(name);
  const c = createClient({ socket: { host: "127.0.0.1", port } });
  c.on("error", (e) => say(`${name} error`, e.message));
  await c.connect();
  await c.flushAll();
  say(`${name} SET`, await c.set("k", "v"));
  say(`${name} GET`, await c.get("k"));
  say(`${name} SET NX PX taken`, await c.set("k", "w", { NX: true, PX: 10000 }));
  say(`${name} SET NX PX free`, await c.set("lock", "me", { NX: true, PX: 10000 }));
  say(`${name} PTTL in range`, (await c.pTTL("lock")) > 9000);
  say(`${name} MULTI`, await c.multi().incr("n").incr("n").get("n").exec());
  await c.hSet("h", { a: "1", b: "2" });
  say(`${name} HGETALL`, await c.hGetAll("h"));
  say(`${name} EVAL`, await c.eval("return {KEYS[1], ARGV[1], redis.call('get', KEYS[1])}", { keys: ["k"], arguments: ["x"] }));
  for (let i = 0; i < 120; i++) await c.set(`scan:${String(i).padStart(3, "0")}`, "1");
  const seen = new Set();
  for await (const got of c.scanIterator({ MATCH: "scan:*", COUNT: 10 })) {
    for (const k of Array.isArray(got) ? got : [got]) seen.add(k);
  }
  say(`${name} scanIterator finds every key`, seen.size);
  const sub = c.duplicate();
  await sub.connect();
  let heard;
  const message = new Promise((resolve) => (heard = resolve));
  await sub.subscribe("news", (m) => heard(m)); // resolved once the server confirmed it
  say(`${name} PUBLISH`, await c.publish("news", "hello"));
  say(`${name} the subscriber's message`, await message);
  await sub.quit();
  await c.quit();
}

async function semaphore() {
  const Redis = require("ioredis");
  const { Mutex } = require("redis-semaphore");
  const a = new Redis({ port, host: "127.0.0.1" });
  const b = new Redis({ port, host: "127.0.0.1" });
  await a.flushall();
  const ma = new Mutex(a, "resource", { lockTimeout: 10000, acquireTimeout: 200, retryInterval: 20, refreshInterval: 0 });
  const mb = new Mutex(b, "resource", { lockTimeout: 10000, acquireTimeout: 200, retryInterval: 20, refreshInterval: 0 });
  say("redis-semaphore A acquires", await ma.tryAcquire());
  say("redis-semaphore B is refused", await mb.tryAcquire());
  say("the lock key holds A's id", (await a.get("mutex:resource")) === ma.identifier);
  await ma.release();
  say("redis-semaphore A released: the key is gone", await a.exists("mutex:resource"));
  say("redis-semaphore B acquires", await mb.tryAcquire());
  await mb.release();
  a.disconnect();
  b.disconnect();
}

(async () => {
  try {
    await nodeRedis("redis4");
    await nodeRedis("redis5");
    await semaphore();
  } catch (e) {
    say("FAIL", `${e.name}: ${e.message}`);
    process.exitCode = 1;
  }
})();
