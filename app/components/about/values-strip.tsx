/** Spec §2 About: eight values scrolling by, repeated four times (speeds in app.css). */
export const companyValues = [
  "Excelencia en calidad",
  "Innovación sostenible",
  "Integridad",
  "Trabajo en equipo",
  "Responsabilidad social",
  "Orientación al cliente",
  "Compromiso ambiental",
  "Transparencia",
];

export function ValuesStrip() {
  const repeated = [0, 1, 2, 3].flatMap((copy) => companyValues.map((value) => ({ key: `${copy}-${value}`, value, copy })));
  return (
    <div className="marquee overflow-hidden border-y border-brand-100 bg-white py-4" data-testid="values-strip">
      <p className="sr-only">Nuestros valores: {companyValues.join(", ")}.</p>
      <ul className="marquee-track flex w-max gap-10" aria-hidden="true">
        {repeated.map(({ key, value }) => (
          <li key={key} className="text-lg font-semibold whitespace-nowrap text-brand-800">
            <span className="mr-10 text-leaf-600">●</span>
            {value}
          </li>
        ))}
      </ul>
    </div>
  );
}
