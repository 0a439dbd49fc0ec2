// The account's rate-limit windows as the client counts them (client/rateLimitGate.ts): requests in
// flight count, answers only lower the estimate within a window, a spent window holds requests
// until its reset, and past the reset the quota is back.
import { describe, expect, it } from "vitest";
import { RateLimitGate, type GateTicket } from "../../client/rateLimitGate";
import type { RateLimitWindow } from "../../client/retry";

const minute = (remaining: number, resetSeconds: number, quota = 10): RateLimitWindow => ({
  name: "minute",
  remaining,
  resetSeconds,
  quota,
});

function go(gate: RateLimitGate, now: number): GateTicket {
  const decision = gate.take(now);
  if (!decision.go) throw new Error(`expected to go at ${now}, told to wait ${decision.waitMs} ms`);
  return decision.ticket;
}

describe("RateLimitGate", () => {
  it("without RateLimit headers nothing is ever held", () => {
    const gate = new RateLimitGate();
    for (let i = 0; i < 100; i++) gate.settle(go(gate, 0), 1, []);
    expect(gate.take(2).go).toBe(true);
  });

  it("an answer's count less the other requests in flight is what is left; the rest wait for the reset", () => {
    const gate = new RateLimitGate();
    gate.settle(go(gate, 0), 0, [minute(9, 10)]);
    const first = go(gate, 0);
    const inFlight = [go(gate, 0), go(gate, 0)];
    gate.settle(first, 100, [minute(3, 10)]); // 3 left, of which the 2 in flight may take 2
    go(gate, 100);
    const held = gate.take(100);
    expect(held).toMatchObject({ go: false, waitMs: 9_900, untilAnswer: false, window: { name: "minute", quota: 10 } });
    for (const t of inFlight) gate.settle(t, 200, [minute(1, 10)]);
    expect(gate.take(200).go).toBe(false);
    // Past the reset the quota is back, less what is still in flight.
    expect(gate.take(10_100).go).toBe(true);
  });

  it("a request whose connection could not be made gives its count back; one that may have reached the service does not", () => {
    const gate = new RateLimitGate();
    gate.settle(go(gate, 0), 0, [minute(2, 10)]);
    const refused = go(gate, 0);
    const lost = go(gate, 0);
    expect(gate.take(0).go).toBe(false);
    gate.settle(refused, 10, [], false, true); // never sent: counted back
    gate.settle(lost, 10, [], false); // a reset mid-answer: the service may have counted it
    go(gate, 20);
    expect(gate.take(20).go).toBe(false);
  });

  it("a stale answer of an earlier window never lowers a new window's count", () => {
    const gate = new RateLimitGate();
    gate.settle(go(gate, 0), 0, [minute(9, 1)]);
    const old = go(gate, 0);
    gate.settle(go(gate, 0), 50, [minute(5, 1)]);
    // The window is over by 1050: a request sent after it learns the new window's state.
    const fresh = go(gate, 1_100);
    gate.settle(fresh, 1_150, [minute(9, 60)]);
    gate.settle(old, 1_200, [minute(0, 1)]);
    expect(gate.take(1_200).go).toBe(true);
  });

  it("a new window spent by requests in flight waits for an answer, and when they all failed one goes to learn its state", () => {
    const gate = new RateLimitGate();
    gate.settle(go(gate, 0), 0, [minute(1, 1, 2)]);
    const tickets = [go(gate, 1_000), go(gate, 1_000)]; // quota 2 in the new window, both taken
    const held = gate.take(1_000);
    expect(held).toMatchObject({ go: false, untilAnswer: true });
    for (const t of tickets) gate.settle(t, 1_100, []);
    expect(gate.take(1_100).go).toBe(true);
  });

  it("past a reset, the first answer of the new window tells its count and its reset", () => {
    const gate = new RateLimitGate();
    gate.settle(go(gate, 0), 0, [minute(1, 1, 5)]);
    gate.settle(go(gate, 1_000), 1_050, [minute(0, 10, 5)]); // the new window is spent already (by another client)
    expect(gate.take(1_100)).toMatchObject({ go: false, waitMs: 9_950, untilAnswer: false });
  });

  it("a new gate lets one request go and holds the others until an answer tells the windows (an earlier process may have spent them)", () => {
    const gate = new RateLimitGate();
    const probe = go(gate, 0);
    expect(gate.take(0)).toMatchObject({ go: false, untilAnswer: true });
    gate.settle(probe, 10, [], false); // no answer: the next one probes again
    const next = go(gate, 20);
    expect(gate.take(20).go).toBe(false);
    gate.settle(next, 30, [minute(2, 10)]);
    expect(gate.take(30).go).toBe(true);
    expect(gate.take(30).go).toBe(true);
    expect(gate.take(30).go).toBe(false);
  });
});
