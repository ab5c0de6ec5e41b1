/**
 * What the Culqi payment page does with a result of Culqi's checkout (payments.md A.4, A.15): a
 * token is posted to the page's action with Culqi3DS's device id; when Culqi answers REVIEW, the
 * bank's 3-D Secure check runs and the same token is posted again with its values. A failed or
 * closed check leaves the order unpaid and the customer free to pay again.
 */
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { authenticateWithCulqi3DS, culqiDeviceFingerprint, THREE_DS_PROBLEMS } from "./culqi-3ds";
import { culqiChargeFormData, type CulqiChargeForm } from "./culqi-charge-form";
import type { CulqiCheckoutResult } from "./use-culqi-checkout";

/** What the page's action answers when it does not redirect. */
export type CulqiChargeAnswer = { error?: string; review?: true; token?: string };

export function useCulqiCharge({ enabled, publicKey, amountCents, email }: { enabled: boolean; publicKey: string; amountCents: number; email: string }) {
  const fetcher = useFetcher<CulqiChargeAnswer>();
  const [problem, setProblem] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  // The REVIEW answer whose 3DS check has ended, and the answer whose message the customer moved past.
  const [verified, setVerified] = useState<CulqiChargeAnswer | null>(null);
  const [dismissed, setDismissed] = useState<CulqiChargeAnswer | undefined>(undefined);
  const cardEmail = useRef<string | null>(null);

  async function charge(form: CulqiChargeForm) {
    setPreparing(true);
    const deviceFingerprint = (await culqiDeviceFingerprint(publicKey)) ?? undefined;
    setPreparing(false);
    await fetcher.submit(culqiChargeFormData({ ...form, deviceFingerprint }), { method: "post" });
  }

  // Culqi's demos take the device id as soon as the page opens, well before the first charge.
  useEffect(() => {
    if (enabled) void culqiDeviceFingerprint(publicKey);
  }, [enabled, publicKey]);

  const runThreeDS = useEffectEvent((answer: CulqiChargeAnswer, token: string) => {
    const controller = new AbortController();
    void authenticateWithCulqi3DS({ publicKey, tokenId: token, amountCents, email: cardEmail.current ?? email, signal: controller.signal }).then((outcome) => {
      if (controller.signal.aborted) return;
      setVerified(answer);
      if (outcome.ok) void charge({ token, authentication3DS: outcome.parameters });
      else setProblem(THREE_DS_PROBLEMS[outcome.reason]);
    });
    return () => controller.abort();
  });
  useEffect(() => {
    const answer = fetcher.data;
    if (answer?.review && answer.token) return runThreeDS(answer, answer.token);
  }, [fetcher.data]);

  const verifying = Boolean(fetcher.data?.review) && verified !== fetcher.data;
  const answerError = fetcher.state === "idle" && fetcher.data !== dismissed ? fetcher.data?.error : undefined;
  return {
    /** Checking with the bank (3D Secure): the page says so. */
    verifying,
    busy: preparing || verifying || fetcher.state !== "idle",
    message: problem ?? answerError ?? null,
    /** A new attempt: earlier messages go away. */
    startAttempt() {
      setProblem(null);
      setDismissed(fetcher.data);
    },
    handleCheckout(result: CulqiCheckoutResult) {
      if (result.kind === "token") {
        cardEmail.current = result.email;
        void charge({ token: result.tokenId });
      } else if (result.kind === "order") void fetcher.submit({ intent: "order_confirmed" }, { method: "post" });
      else setProblem(result.message);
    },
  };
}
