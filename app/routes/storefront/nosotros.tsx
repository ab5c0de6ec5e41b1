import { Suspense } from "react";
import { Await, data, redirect } from "react-router";
import type { Route } from "./+types/nosotros";
import { getSignedInUser } from "@server/accounts/index.server";
import { countVotes, countVotesForPublicPage, findVoteOf, listHistorySlides, listOrganizations, voteForOrganization } from "@server/content/index.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { INT32_MAX } from "@core/input-schemas";
import { HistoryCarousel } from "~/components/about/history-carousel";
import { OrganizationCards, OrganizationSkeletons, type VoteNotice } from "~/components/about/organization-cards";
import { ValuesStrip } from "~/components/about/values-strip";
import { LinkButton } from "~/components/ui/link-button";
import { Reveal } from "~/components/ui/reveal";
import { ScrollRegion } from "~/components/ui/scroll-region";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { loginUrlFor } from "~/server/session.server";

/**
 * Decision 0022: the anonymous page stays public (micro-cache, CDN, browser); a signed-in
 * visitor's page carries their vote and fresh counts, so it is private and never stored. `Vary:
 * Cookie` keeps a browser from answering a signed-in visit with the anonymous copy it kept.
 */
const publicHeaders = { "Cache-Control": "public, max-age=60, stale-while-revalidate=300", Vary: "Cookie" };
const signedInHeaders = { ...privatePageHeaders, Vary: "Cookie" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  // Below the fold: streamed on client navigations, awaited for documents (entry.server).
  const votes = (user ? countVotes(db) : countVotesForPublicPage(db)).catch((error: unknown) => {
    console.error("Could not count organisation votes", error);
    return null;
  });
  const organizations = Promise.all([listOrganizations(db), votes, user ? findVoteOf(db, user.id) : null]).then(([list, counts, myVote]) =>
    list.map((organization) => ({ ...organization, votes: counts ? (counts[organization.id] ?? 0) : null, mine: organization.id === myVote })),
  );
  return data({ organizations, history: listHistorySlides(db), signedIn: Boolean(user) }, { headers: user ? signedInHeaders : publicHeaders });
}

/** Spec §1: a signed-in customer votes for one organisation; voting again moves the vote. Works without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) throw redirect(loginUrlFor(request));
  const form = await readFormData(request);
  const organizationId = Number(form.get("organizationId"));
  const result =
    form.get("intent") === "vote" && Number.isInteger(organizationId) && organizationId > 0 && organizationId <= INT32_MAX
      ? await voteForOrganization(db, { userId: user.id, organizationId, now: new Date() })
      : null;
  if (!result?.ok) {
    return data<VoteNotice>(
      { ok: false, message: "No pudimos registrar tu voto: la organización elegida no existe." },
      { status: 400, headers: signedInHeaders },
    );
  }
  return data<VoteNotice>({ ok: true, message: "¡Gracias! Tu voto quedó registrado." }, { headers: signedInHeaders });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  return pageMeta(site, {
    title: `Nosotros | ${site?.brandName ?? "Vida Alcalina"}, agua alcalina con propósito`,
    description: "Conoce nuestra historia, nuestros valores y las organizaciones sociales que apoyamos con cada suscripción de agua alcalina en Lima.",
    path: "/nosotros",
  });
};

const pillars = [
  { title: "Producto", text: "Agua alcalina pH 8.5 con calcio, potasio, magnesio y sodio, controlada en cada lote." },
  { title: "Compromiso Social", text: "Cada suscripción apoya a una organización social elegida por nuestros clientes." },
  { title: "Sostenibilidad", text: "Envases retornables y reciclables, y rutas de reparto por distrito para contaminar menos." },
  { title: "Somos Agua", text: "Creemos que hidratarse bien es la base de una vida sana, para ti y para el planeta." },
];

const comparison = [
  { aspect: "pH", normal: "Alrededor de 7 (neutro)", alkaline: "8.5 (alcalino)" },
  { aspect: "Minerales", normal: "Variables según la fuente", alkaline: "Calcio, potasio, magnesio y sodio" },
  { aspect: "Envase", normal: "Generalmente de un solo uso", alkaline: "Retornable y reciclable" },
  { aspect: "Entrega", normal: "Compra en tienda", alkaline: "Delivery programado en tu distrito" },
  { aspect: "Impacto", normal: "—", alkaline: "Apoya causas sociales con cada suscripción" },
];

export default function Nosotros({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="contenido">
      <section className="bg-gradient-to-b from-brand-50 to-white pt-12 text-center">
        <h1 className="px-4 text-4xl font-black text-brand-900 sm:text-5xl">Somos agua de vida</h1>
        <p className="mx-auto mt-4 max-w-2xl px-4 text-lg text-slate-700">
          Llevamos agua alcalina a los hogares y oficinas de Lima, cuidando a las personas, a la comunidad y al planeta.
        </p>
        <div className="mt-10">
          <ValuesStrip />
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6" aria-labelledby="proposito-social">
        <Reveal>
          <h2 id="proposito-social" className="text-center text-3xl font-bold text-brand-900">
            Nuestro propósito social
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">Las organizaciones que acompañamos gracias a nuestros suscriptores.</p>
          <div className="mt-10">
            <Suspense fallback={<OrganizationSkeletons />}>
              <Await resolve={loaderData.organizations}>
                {(organizations) => <OrganizationCards organizations={organizations} signedIn={loaderData.signedIn} notice={actionData} />}
              </Await>
            </Suspense>
          </div>
        </Reveal>
      </section>

      <section className="bg-sky-50 py-16" aria-labelledby="pilares">
        <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="pilares" className="text-center text-3xl font-bold text-brand-900">
            Nuestros pilares
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {pillars.map((pillar) => (
              <li key={pillar.title} className="rounded-3xl bg-white p-6 shadow-sm">
                <h3 className="font-semibold text-brand-800">{pillar.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{pillar.text}</p>
              </li>
            ))}
          </ul>
          <div className="mt-10 text-center">
            <LinkButton to="/tienda">Compra y suscríbete</LinkButton>
          </div>
        </Reveal>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6" aria-labelledby="historia">
        <h2 id="historia" className="mb-10 text-center text-3xl font-bold text-brand-900">
          Nuestra historia
        </h2>
        <Suspense fallback={<p className="text-center text-slate-600">Cargando historia…</p>}>
          <Await resolve={loaderData.history}>{(slides) => <HistoryCarousel slides={slides} />}</Await>
        </Suspense>
      </section>

      <section className="bg-brand-50 py-16" aria-labelledby="comparacion">
        <Reveal className="mx-auto max-w-4xl px-4 sm:px-6">
          <h2 id="comparacion" className="text-center text-3xl font-bold text-brand-900">
            Agua normal vs. agua alcalina
          </h2>
          {/* Edge to edge with tighter cells on a phone: the three columns then fit 360 px unscrolled. */}
          <ScrollRegion label="Tabla comparativa: agua normal y agua alcalina" className="-mx-4 mt-8 bg-white shadow-sm sm:mx-0 sm:rounded-3xl">
            <table className="w-full text-left text-sm sm:text-base">
              <thead className="bg-brand-800 text-white">
                <tr>
                  <th scope="col" className="px-2.5 py-3 sm:p-4">
                    Característica
                  </th>
                  <th scope="col" className="px-2.5 py-3 sm:p-4">
                    Agua normal
                  </th>
                  <th scope="col" className="px-2.5 py-3 sm:p-4">
                    Agua alcalina
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {comparison.map((row) => (
                  <tr key={row.aspect}>
                    <th scope="row" className="px-2.5 py-3 sm:p-4 font-semibold text-slate-800">
                      {row.aspect}
                    </th>
                    <td className="px-2.5 py-3 sm:p-4 text-slate-600">{row.normal}</td>
                    <td className="px-2.5 py-3 sm:p-4 font-medium text-brand-800">{row.alkaline}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div className="mt-8 text-center">
            <LinkButton to="/tienda">Compra y suscríbete</LinkButton>
          </div>
        </Reveal>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6" aria-labelledby="comunidad">
        <Reveal>
          <h2 id="comunidad" className="text-3xl font-bold text-brand-900">
            Únete a nuestra comunidad
          </h2>
          <p className="mt-3 text-lg text-slate-700">Cada pedido suma: hidrátate mejor y ayúdanos a transformar Lima, gota a gota.</p>
          <LinkButton to="/tienda" className="mt-8">
            Haz tu compra
          </LinkButton>
        </Reveal>
      </section>
    </main>
  );
}
