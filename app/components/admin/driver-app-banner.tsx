import type { Connection } from "~/lib/driver-app/use-driver-app";

const time = (iso: string) =>
  new Intl.DateTimeFormat("es-PE", { timeZone: "America/Lima", hour: "2-digit", minute: "2-digit", hour12: false }).format(new Date(iso));

/**
 * The driver app's state in one line (issue 26): without signal, how many taps wait on the phone;
 * signed out, that they wait for the next sign-in. Gone once everything is sent.
 */
export function DriverAppBanner({ connection, pending, loadedAt }: { connection: Connection; pending: number; loadedAt: string }) {
  if (connection === "online" && pending === 0) return null;
  const count = `${pending} por enviar`;
  const text =
    connection === "signed_out"
      ? `Tu sesión terminó · ${count}: inicia sesión para enviarlas`
      : connection === "offline"
        ? pending > 0
          ? `Sin conexión · ${count}`
          : "Sin conexión"
        : `Enviando · ${count}`;
  return (
    <div role="status" className="mb-4 rounded-xl bg-amber-100 p-4 text-amber-950" data-testid="driver-app-banner">
      <p className="font-semibold">{text}</p>
      {/* Without signal the route on screen is the copy the phone kept when it last had signal (issue 40). */}
      {connection === "offline" && (
        <p className="text-sm" data-testid="route-saved-at">
          Ruta guardada en el teléfono a las {time(loadedAt)}.
        </p>
      )}
      {connection === "signed_out" && (
        <a href="/login?redirectTo=%2Fadmin%2Freparto" className="mt-2 inline-flex min-h-12 items-center font-semibold text-amber-950 underline">
          Iniciar sesión
        </a>
      )}
    </div>
  );
}
