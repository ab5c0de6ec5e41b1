import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { FormAlert } from "~/components/account/auth-shell";
import { PasswordHints } from "~/components/account/password-hints";
import { PasswordInput } from "~/components/account/password-input";

/** Spec §4: the dialog closes 2 s after a successful change. */
const CLOSE_AFTER_MS = 2000;

interface PasswordActionData {
  intent: "password";
  ok: boolean;
  message: string | null;
  fieldErrors: Record<string, string>;
}

/**
 * decisions.md: the account's password change checks the current password and uses the reset
 * form's strength rules. It ends every other session; this browser gets a fresh one.
 */
export function ChangePasswordDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<PasswordActionData>();
  const [newPassword, setNewPassword] = useState("");
  const [formKey, setFormKey] = useState(0);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => dialog.current?.close(), CLOSE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const open = () => {
    setNewPassword("");
    setFormKey((key) => key + 1);
    dialog.current?.showModal();
  };

  return (
    <>
      <button type="button" onClick={open} className="rounded-full border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
        Cambiar contraseña
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="change-password-title"
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-3xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <fetcher.Form key={formKey} method="post" className="space-y-4 p-6" noValidate>
          <h2 id="change-password-title" className="text-xl font-bold">
            Cambiar contraseña
          </h2>
          <input type="hidden" name="intent" value="password" />
          {result?.message && <FormAlert tone={result.ok ? "success" : "error"}>{result.message}</FormAlert>}
          <PasswordInput label="Contraseña actual" name="currentPassword" autoComplete="current-password" error={result?.fieldErrors.currentPassword} />
          <PasswordInput
            label="Nueva contraseña"
            name="newPassword"
            autoComplete="new-password"
            value={newPassword}
            onChange={setNewPassword}
            error={result?.fieldErrors.newPassword}
          />
          <PasswordInput label="Confirmar nueva contraseña" name="confirmPassword" autoComplete="new-password" error={result?.fieldErrors.confirmPassword} />
          <PasswordHints value={newPassword} />
          <div className="flex flex-wrap justify-end gap-3">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded-full border border-slate-300 px-5 py-2.5 font-semibold text-slate-700 hover:bg-slate-50"
            >
              Cancelar
            </button>
            <button
              type="submit"
              disabled={busy}
              className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {busy ? "Actualizando..." : "Actualizar contraseña"}
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
