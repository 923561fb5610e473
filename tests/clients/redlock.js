// redlock.js PORT MODE — node redlock 5.0.0-beta.2 (on ioredis) against a Redis on PORT,
// printing one line per step, so that the same run against redis-server and against
// `locklab serve` can be compared line by line. MODE:
//   same   acquire, a second acquire refused, extend, release, the other acquires: the
//          outcome every Redis gives (run against both, compared by the test);
//   expiry (locklab serve --clock manual only) the lease runs out under the client when
//          LOCKLAB ADVANCE moves time past it: its extend fails and another client acquires;
//          then LOCKLAB CRASH takes the node away from the next holder;
//   pubsub ioredis alone: SUBSCRIBE and PSUBSCRIBE with their messages and pattern
//          messages, BLPOP answered when another
//          connection pushes, BRPOP's timeout (run against both, compared by the test).
// ioredis's handshake (INFO ready check, CLIENT SETNAME through connectionName) runs first.
"use strict";
const Redis = require("ioredis");
const { default: Redlock, ExecutionError } = require("redlock");

const port = Number(process.argv[2]);
const mode = process.argv[3];
const say = (what, value) => console.log(`${what}: ${value}`);

async function outcome(promise) {
  try {
    await promise;
    return "ok";
  } catch (e) {
    return e instanceof ExecutionError ? "ExecutionError" : `${e.name}: ${e.message}`;
  }
}

async function main() {
  const opts = { port, connectionName: "redlock-test", maxRetriesPerRequest: 0, retryStrategy: () => null };
  const a = new Redis(opts);
  const b = new Redis(opts);
  const settings = { retryCount: 0, driftFactor: 0.01 };
  const ra = new Redlock([a], settings);
  const rb = new Redlock([b], settings);
  say("client name", await a.client("GETNAME"));
  await a.del("res");
  if (mode === "same") {
    const lock = await ra.acquire(["res"], 10000);
    say("A acquires", "ok");
    say("the key holds A's value", (await a.get("res")) === lock.value);
    say("B is refused", await outcome(rb.acquire(["res"], 10000)));
    const longer = await lock.extend(20000);
    const pttl = await a.pttl("res");
    say("A extends to 20 s", pttl > 19000 && pttl <= 20000);
    say("A releases", await outcome(longer.release()));
    say("the key is gone", await a.exists("res"));
    const lockB = await rb.acquire(["res"], 10000);
    say("then B acquires", "ok");
    say("A's stale release changes nothing", await outcome(longer.release()));
    say("B still holds it", (await a.get("res")) === lockB.value);
    await lockB.release();
  } else if (mode === "pubsub") {
    const sub = new Redis(opts);
    const got = [];
    sub.on("message", (ch, msg) => got.push(`message ${ch} ${msg}`));
    sub.on("pmessage", (pat, ch, msg) => got.push(`pmessage ${pat} ${ch} ${msg}`));
    say("subscribe", await sub.subscribe("news.a", "other"));
    say("psubscribe", await sub.psubscribe("news.*"));
    say("publish news.a", await a.publish("news.a", "m1"));
    say("publish news.b", await a.publish("news.b", "m2"));
    say("PUBSUB NUMPAT", await a.pubsub("NUMPAT"));
    say("PUBSUB NUMSUB", JSON.stringify(await a.pubsub("NUMSUB", "news.a", "none")));
    await a.ping(); // the messages are written before this reply
    await sub.ping();
    say("messages", JSON.stringify(got));
    say("punsubscribe", await sub.punsubscribe("news.*"));
    sub.disconnect();
    const waiting = b.blpop("queue", 0);
    await a.ping();
    say("blocked clients", /blocked_clients:(\d+)/.exec(await a.info("clients"))[1]);
    say("rpush", await a.rpush("queue", "job1"));
    say("BLPOP answered", JSON.stringify(await waiting));
    say("BRPOP times out", JSON.stringify(await b.brpop("empty", 0.2)));
  } else {
    const lock = await ra.acquire(["res"], 10000);
    say("A acquires for 10 s", "ok");
    say("the lease", await a.pttl("res"));
    say("LOCKLAB ADVANCE 10001", await a.call("LOCKLAB", "ADVANCE", "10001"));
    say("the lease ran out under A", await a.pttl("res"));
    say("A's extend", await outcome(lock.extend(10000)));
    const lockB = await rb.acquire(["res"], 10000);
    say("B acquires", "ok");
    say("A's release", await outcome(lock.release()));
    say("B still holds it", (await b.get("res")) === lockB.value);
    say("LOCKLAB CRASH n1", await a.call("LOCKLAB", "CRASH", "n1"));
    await new Promise((r) => setTimeout(r, 50));
    say("B's extend while n1 is down", await outcome(lockB.extend(10000)));
  }
  a.disconnect();
  b.disconnect();
}

main().catch((e) => {
  console.log(`FAIL: ${e.stack || e}`);
  process.exit(1);
});
