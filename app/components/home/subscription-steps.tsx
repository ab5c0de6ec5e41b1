/** Spec §1: the five subscription steps shown to visitors. */
export const subscriptionSteps = [
  { title: "Elige tu producto favorito", text: "Escoge la presentación que mejor va contigo: personal, sport, familiar, bidón o caja." },
  { title: "Selecciona tu membresía", text: "Mensual con 5% de descuento o anual con 15% de descuento en cada pedido." },
  { title: "Programa tu fecha de entrega", text: "Elige el día de reparto de tu distrito y coordinamos cada entrega contigo por chat." },
  { title: "Recibe en tu puerta", text: "Llevamos el agua hasta tu casa u oficina, gratis en distritos seleccionados." },
  { title: "Contribuye a causas sociales", text: "Tu suscripción apoya a la organización social que tú elijas." },
];

export function SubscriptionSteps() {
  return (
    <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      {subscriptionSteps.map((step, index) => (
        <li key={step.title} className="rounded-3xl bg-white p-6 shadow-sm">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white" aria-hidden="true">
            {index + 1}
          </span>
          <h3 className="mt-4 font-semibold text-brand-900">{step.title}</h3>
          <p className="mt-2 text-sm text-slate-600">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
