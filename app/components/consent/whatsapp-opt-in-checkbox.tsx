import { useId } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { WHATSAPP_OPT_IN_LABEL, whatsappOptInNote } from "@core/whatsapp";

/**
 * Issue 25: the separate, unticked WhatsApp opt-in of checkout, sign-up and the profile (the
 * Business Messaging Policy asks for it, naming the business and what it sends). Shown only when
 * the shop has WhatsApp; the label and note are what each opt-in is recorded with. Issue 39: the
 * number is asked first, and the note says so.
 */
export function WhatsappOptInCheckbox(
  props: ({ name: string; defaultChecked?: boolean } | { checked: boolean; onChange: (checked: boolean) => void }) & { error?: string },
) {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  const noteId = useId();
  const errorId = useId();
  if (!site?.whatsappNotices) return null;
  const control =
    "name" in props
      ? { name: props.name, defaultChecked: props.defaultChecked ?? false }
      : { checked: props.checked, onChange: (event: React.ChangeEvent<HTMLInputElement>) => props.onChange(event.target.checked) };
  return (
    <div className="sm:col-span-2">
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          {...control}
          aria-describedby={props.error ? `${noteId} ${errorId}` : noteId}
          aria-invalid={props.error ? true : undefined}
          className="mt-1 accent-brand-700"
          data-testid="whatsapp-opt-in"
        />
        <span>{WHATSAPP_OPT_IN_LABEL}</span>
      </label>
      <p id={noteId} className="mt-1 ml-6 text-xs text-slate-600">
        Opcional. {whatsappOptInNote(site.brandName)} Te escribiremos una vez para confirmar que el número es tuyo: responde SÍ y empezarán los avisos.
      </p>
      {props.error && (
        <p id={errorId} className="mt-1 ml-6 text-sm text-red-700" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
