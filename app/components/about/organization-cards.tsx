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

export function OrganizationCards({ organizations }: { organizations: Organization[] }) {
  if (organizations.length === 0) {
    return <p className="rounded-2xl bg-slate-50 p-8 text-center text-slate-600">No hay organizaciones para mostrar en este momento.</p>;
  }
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" data-testid="organization-cards">
      {organizations.map((organization) => (
        <li key={organization.id} className="overflow-hidden rounded-3xl border border-slate-100 bg-white shadow-sm">
          <img src={organization.image ?? "/images/organizations/reforestacion.svg"} alt="" width={480} height={320} loading="lazy" className="aspect-[3/2] w-full object-cover" />
          <div className="p-5">
            <h3 className="font-semibold text-brand-900">{organization.title}</h3>
            <p className="mt-2 text-sm text-slate-600">{organization.description}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
