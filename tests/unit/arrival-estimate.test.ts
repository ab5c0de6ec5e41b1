import { describe, expect, it } from "vitest";
import { routeArrivalEstimates, routeDelayMinutes, type ArrivalStop } from "@core/arrival-estimate";

/** Issue 40, decision 0094: the one arrival estimate, on a day of its own (Lima is UTC−5). */
const date = "2031-03-12";
const at = (clock: string) => new Date(`${date}T${clock}:00-05:00`);
const hhmm = (instant: Date | undefined | null) => (instant ? new Date(instant.getTime() - 5 * 3_600_000).toISOString().slice(11, 16) : null);
const stop = (id: string, plan: string | null, extra: Partial<ArrivalStop> = {}): ArrivalStop => ({
  id,
  status: "scheduled",
  deliveryWindow: "manana",
  plannedArrival: plan ? at(plan) : null,
  doneAt: null,
  ...extra,
});
const estimate = (stops: ArrivalStop[], now: string) => routeArrivalEstimates(stops, { date, now: at(now), serviceMinutes: 6 });

describe("the one arrival estimate (issue 40)", () => {
  it("keeps the plan when the van is ahead (it waits for the slot) and counts only unfinished stops before", () => {
    const stops = [stop("a", "09:00", { status: "delivered", doneAt: at("08:40") }), stop("b", "09:30"), stop("c", "10:00")];
    expect(routeDelayMinutes(stops, at("08:45"), 6)).toBe(-26);
    const result = estimate(stops, "08:45");
    expect(result.has("a")).toBe(false);
    expect(result.get("b")).toMatchObject({ stopsBefore: 0, isNext: true, late: null });
    expect(hhmm(result.get("b")!.expected)).toBe("09:30");
    expect([hhmm(result.get("c")!.window?.from), hhmm(result.get("c")!.window?.to)]).toEqual(["09:45", "10:15"]);
  });

  it("moves every open stop by the route's delay, never before now, and never opens the window in the past", () => {
    const result = estimate([stop("a", "09:00"), stop("b", "09:30")], "09:40");
    // The next stop is 40 minutes overdue: it is expected now, the one after it 40 minutes late.
    expect(hhmm(result.get("a")!.expected)).toBe("09:40");
    expect(hhmm(result.get("a")!.window?.from)).toBe("09:40");
    expect(hhmm(result.get("b")!.expected)).toBe("10:10");
  });

  it("says why a stop misses its slot: the route's delay, a plan already after it, or a closed slot with no time", () => {
    const result = estimate(
      [stop("a", "11:00"), stop("b", "11:50"), stop("c", "12:20"), stop("d", null), stop("e", "15:00", { deliveryWindow: "tarde" })],
      "11:30",
    );
    expect(result.get("a")!.late).toBeNull();
    expect(result.get("b")!.late).toEqual({ reason: "route_delayed", minutes: 20 });
    expect(result.get("c")!.late).toEqual({ reason: "planned_after_slot", minutes: 50 });
    expect(result.get("d")!.late).toBeNull();
    expect(result.get("e")!.late).toBeNull();
    expect(estimate([stop("d", null)], "12:01").get("d")!.late).toEqual({ reason: "slot_passed", minutes: 1 });
  });
});
