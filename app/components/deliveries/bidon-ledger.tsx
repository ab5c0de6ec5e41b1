import { Link } from "react-router";
import type { BidonBalance, BidonMovement } from "@server/deliveries/index.server";
import { AccountSection } from "~/components/account/account-page";
import { formatLimaInstant } from "@core/lima-dates";

/** Issue 10: the customer's returnable bidones: how many of ours they hold, and the latest movements. */
export function BidonLedger({ summary }: { summary: BidonBalance & { movements: BidonMovement[] } }) {
  return (
    <AccountSection title="Bidones retornables">
      <dl className="grid grid-cols-3 gap-2 text-center text-sm" data-testid="bidon-summary">
        {(
          [
            ["En tu poder", summary.balance, "bidon-balance"],
            ["Recibidos", summary.lent, "bidon-lent"],
            ["Devueltos", summary.returned, "bidon-returned"],
          ] as const
        ).map(([label, value, testId]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-2xl font-bold text-slate-900" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {summary.movements.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Aún no hay movimientos de bidones.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100 text-sm" aria-label="Últimos movimientos de bidones">
          {summary.movements.map((movement) => (
            <li key={movement.id} className="flex flex-wrap justify-between gap-x-3 gap-y-1 py-2">
              <span className="text-slate-900">
                {movement.kind === "lent"
                  ? `Recibiste ${movement.quantity} ${movement.quantity === 1 ? "bidón lleno" : "bidones llenos"}`
                  : `Devolviste ${movement.quantity} ${movement.quantity === 1 ? "vacío" : "vacíos"}`}
                {" · "}
                {movement.deliveryId ? (
                  <Link to={`/dashboard/envios/${movement.deliveryId}`} className="font-semibold text-brand-800 underline">
                    Envío {movement.deliveryNumber}
                  </Link>
                ) : (
                  "registrado por nuestro equipo"
                )}
              </span>
              <time dateTime={movement.createdAt} className="text-slate-600">
                {formatLimaInstant(movement.createdAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}
