import { Form, Link } from "react-router";
import type { Organization } from "@server/content/index.server";

export function OrganizationSkeletons() {
  return (
    <ul className="grid gap-6 md:grid-cols-3" aria-busy="true" aria-label="Cargando organizaciones" data-testid="organization-skeletons">
      {[0, 1, 2].map((key) => (
        <li key={key} className="animate-pulse rounded-3xl border border-slate-100 p-4">
          <div className="aspect-[3/2] rounded-2xl bg-slate-200" />
          <div className="mt-4 h-5 w-2/3 rounded bg-slate-200" />
          <div className="mt-2 h-4 w-full rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}

/** The answer of the /nosotros vote action. */
export interface VoteNotice {
  ok: boolean;
  message: string;
}

/** An organisation with its public vote count (null when the count could not be read) and whether it has the visitor's vote. */
export type OrganizationWithVotes = Organization & { votes: number | null; mine: boolean };

const voteLabel = (votes: number) => `${votes.toLocaleString("es-PE")} ${votes === 1 ? "voto" : "votos"}`;

export function OrganizationCards({ organizations, signedIn, notice }: { organizations: OrganizationWithVotes[]; signedIn?: boolean; notice?: VoteNotice }) {
  if (organizations.length === 0) {
    return <p className="rounded-2xl bg-slate-50 p-8 text-center text-slate-600">No hay organizaciones para mostrar en este momento.</p>;
  }
  return (
    <>
      {notice && (
        <p
          role={notice.ok ? "status" : "alert"}
          className={`mb-6 rounded-xl px-4 py-3 text-center ${notice.ok ? "bg-brand-50 text-brand-900" : "bg-red-50 text-red-800"}`}
        >
          {notice.message}
        </p>
      )}
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" data-testid="organization-cards">
        {organizations.map((organization, index) => (
          <li key={organization.id} className="flex flex-col overflow-hidden rounded-3xl border border-slate-100 bg-white shadow-sm">
            <img
              src={organization.image ?? "/images/organizations/reforestacion.svg"}
              alt=""
              width={480}
              height={320}
              // The first card is in a phone's first screen and its picture the page's largest paint: fetched at once.
              loading={index === 0 ? "eager" : "lazy"}
              fetchPriority={index === 0 ? "high" : undefined}
              className="aspect-[3/2] w-full object-cover"
            />
            <div className="flex flex-1 flex-col p-5">
              <h3 className="font-semibold text-brand-900">{organization.title}</h3>
              <p className="mt-2 flex-1 text-sm text-slate-600">{organization.description}</p>
              {organization.votes !== null && (
                <div className="mt-4 flex items-center justify-between gap-3 text-sm">
                  <span className="font-semibold text-brand-800" data-testid="organization-votes">
                    {voteLabel(organization.votes)}
                  </span>
                  {organization.mine ? (
                    <span className="rounded-full bg-brand-100 px-3 py-1 font-semibold text-brand-900">Tu voto</span>
                  ) : (
                    signedIn && (
                      // A plain form: it votes without JavaScript; with it, React Router submits it in place.
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="intent" value="vote" />
                        <button
                          name="organizationId"
                          value={organization.id}
                          className="rounded-full border-2 border-brand-700 px-4 py-1 font-semibold text-brand-800 hover:bg-brand-50"
                        >
                          Votar<span className="sr-only"> por {organization.title}</span>
                        </button>
                      </Form>
                    )
                  )}
                </div>
              )}
            </div>
          </li>
        ))}
      </ul>
      {!signedIn && (
        <p className="mt-6 text-center">
          <Link to="/login?redirectTo=%2Fnosotros" className="font-semibold text-brand-800 underline">
            Inicia sesión para votar
          </Link>
        </p>
      )}
    </>
  );
}
