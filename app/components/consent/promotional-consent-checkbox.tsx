import { useId } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { promotionalConsentLabel, promotionalConsentNote } from "@core/promotional-consent";

/**
 * Issue 12 (Ley 29733, Código art. 58.1(e)): the separate, unticked promotional-e-mail consent of
 * checkout and sign-up, with what makes it informed: who is responsible, what for, who helps send
 * it, how long, and how to withdraw. The wording is PROMOTIONAL_CONSENT_TEXT_VERSION. Ticking it only
 * asks: the consent counts once confirmed from the e-mail it sends (double opt-in, decision 0072).
 */
export function PromotionalConsentCheckbox(props: { name: string; defaultChecked?: boolean } | { checked: boolean; onChange: (checked: boolean) => void }) {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  const noteId = useId();
  const brandName = site?.brandName ?? "";
  // The same words the server stores with each consent (promotionalConsentText).
  const note = promotionalConsentNote(site?.issuer ?? null);
  const control =
    "name" in props
      ? { name: props.name, defaultChecked: props.defaultChecked ?? false }
      : { checked: props.checked, onChange: (event: React.ChangeEvent<HTMLInputElement>) => props.onChange(event.target.checked) };
  return (
    <div className="sm:col-span-2">
      <label className="flex items-start gap-2">
        <input type="checkbox" {...control} aria-describedby={noteId} className="mt-1 accent-brand-700" />
        <span>{promotionalConsentLabel(brandName)}</span>
      </label>
      <p id={noteId} className="mt-1 ml-6 text-xs text-slate-600">
        {note.lead}
        <a href="/preferencias-de-correo" className="underline">
          {note.preferencesLink}
        </a>
        {note.middle}
        <a href="/privacidad" className="underline">
          {note.privacyLink}
        </a>
        {note.end}
      </p>
    </div>
  );
}
