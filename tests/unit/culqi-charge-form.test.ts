import { describe, expect, it } from "vitest";
import { read3DSMessage } from "~/lib/culqi-3ds";
import { culqiChargeFormData, readCulqiChargeForm } from "~/lib/culqi-charge-form";

const bankValues = { eci: "05", xid: "eGlk", cavv: "Y2F2dg==", protocolVersion: "2.1.0", directoryServerTransactionId: "9a7c0a4e-1b1d-4f0e-9a55-3c1e5b0f7d21" };

function form(fields: Record<string, string>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
}

describe("the Culqi charge form", () => {
  it("carries the token, the device id and the bank's 3DS values from the page to the action unchanged", () => {
    const charge = { token: "tkn_test_abc123", deviceFingerprint: "dev-9f8e7d6c", authentication3DS: bankValues };
    expect(readCulqiChargeForm(form(culqiChargeFormData(charge)))).toEqual(charge);
    expect(readCulqiChargeForm(form(culqiChargeFormData({ token: "ype_live_xyz" })))).toEqual({ token: "ype_live_xyz" });
  });

  it("refuses a token that is not Culqi's, and 3DS values that are not JSON or not a flat object", () => {
    expect(readCulqiChargeForm(form({ token: "tok_visa" }))).toBeNull();
    expect(readCulqiChargeForm(form({}))).toBeNull();
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", authentication3DS: "{eci:05" }))).toBeNull();
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", authentication3DS: "[1,2]" }))).toBeNull();
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", authentication3DS: "{}" }))).toBeNull();
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", authentication3DS: JSON.stringify({ eci: { nested: true } }) }))).toBeNull();
  });

  it("drops a malformed device id instead of refusing the payment", () => {
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", deviceFingerprint: "con espacios" }))).toEqual({ token: "tkn_test_abc" });
    expect(readCulqiChargeForm(form({ token: "tkn_test_abc", deviceFingerprint: "x".repeat(300) }))).toEqual({ token: "tkn_test_abc" });
  });
});

describe("Culqi3DS window messages", () => {
  it("reads the bank's values from parameters3DS", () => {
    expect(read3DSMessage({ parameters3DS: bankValues })).toEqual({ parameters: bankValues });
  });

  it("treats an error, or values of the wrong shape, as a failed check", () => {
    expect(read3DSMessage({ error: "Autenticación fallida" })).toEqual({ failed: true });
    expect(read3DSMessage({ error: { code: "3DS_TIMEOUT" } })).toEqual({ failed: true });
    expect(read3DSMessage({ parameters3DS: "eci=05" })).toEqual({ failed: true });
  });

  it("ignores messages that are not Culqi3DS's", () => {
    expect(read3DSMessage("hello")).toBeNull();
    expect(read3DSMessage(null)).toBeNull();
    expect(read3DSMessage({ type: "webpackOk" })).toBeNull();
    expect(read3DSMessage({ parameters3DS: null, error: null })).toBeNull();
  });
});
