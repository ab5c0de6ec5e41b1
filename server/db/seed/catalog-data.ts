/** Demo catalogue: the presentations of spec §1 with pack-size variants, prices in céntimos (IGV included). */
export interface SeedProduct {
  slug: string;
  title: string;
  description: string;
  image: string;
  priceCents: number | null;
  sku: string | null;
  sortOrder: number | null;
  weightLabel: string;
  dimensionsLabel: string;
  /** Garantía per returnable bidón (decision 0075); absent = none. */
  garantiaCents?: number;
  variants: { title: string; priceCents: number; sku: string; active?: boolean }[];
}

export const seedProducts: SeedProduct[] = [
  {
    slug: "agua-alcalina-personal-625ml",
    title: "Agua alcalina personal 625 ml",
    description:
      "Nuestra presentación personal para llevar a todas partes. Agua alcalina con pH 8.5, enriquecida con calcio, potasio, magnesio y sodio. Botella 100% reciclable.",
    image: "/images/products/personal-625.svg",
    priceCents: null,
    sku: "VA-P625",
    sortOrder: 1,
    weightLabel: "0.65kg por botella",
    dimensionsLabel: "6.5 x 22 x 6.5cm",
    variants: [
      { title: "Pack x 12", priceCents: 3000, sku: "VA-P625-12" },
      { title: "Pack x 24", priceCents: 5600, sku: "VA-P625-24" },
      { title: "Pack x 48", priceCents: 10500, sku: "VA-P625-48" },
    ],
  },
  {
    slug: "agua-alcalina-sport-1l",
    title: "Agua alcalina sport 1 L",
    description:
      "La botella de 1 litro con tapa deportiva, ideal para el gimnasio, correr o la oficina. pH 8.5 y minerales esenciales para una mejor hidratación.",
    image: "/images/products/sport-1l.svg",
    priceCents: null,
    sku: "VA-S1L",
    sortOrder: 2,
    weightLabel: "1.05kg por botella",
    dimensionsLabel: "8 x 27 x 8cm",
    variants: [
      { title: "Pack x 6", priceCents: 2400, sku: "VA-S1L-06" },
      { title: "Pack x 12", priceCents: 4500, sku: "VA-S1L-12" },
      { title: "Pack x 24", priceCents: 8600, sku: "VA-S1L-24" },
    ],
  },
  {
    slug: "agua-alcalina-familiar-8l",
    title: "Agua alcalina familiar 8 L",
    description: "Bidón familiar de 8 litros con asa y caño dosificador. Perfecto para la cocina y para toda la familia durante la semana.",
    image: "/images/products/familiar-8l.svg",
    priceCents: null,
    sku: "VA-F8L",
    sortOrder: 3,
    weightLabel: "8kg",
    dimensionsLabel: "18.7 x 38.8 x 18.7cm",
    variants: [
      { title: "1 unidad", priceCents: 1590, sku: "VA-F8L-01" },
      { title: "Pack x 2", priceCents: 2990, sku: "VA-F8L-02" },
      { title: "Pack x 4", priceCents: 5600, sku: "VA-F8L-04" },
    ],
  },
  {
    slug: "bidon-retornable-hogar-20l",
    title: "Bidón retornable hogar 20 L",
    description: "Bidón retornable de 20 litros para tu casa. En cada recarga recogemos el envase vacío y lo reutilizamos: menos plástico, el mismo pH 8.5.",
    image: "/images/products/bidon-hogar-20l.svg",
    priceCents: null,
    sku: "VA-BH20",
    garantiaCents: 2000,
    sortOrder: 4,
    weightLabel: "20.8kg",
    dimensionsLabel: "27 x 49 x 27cm",
    variants: [
      { title: "Recarga (canje de envase)", priceCents: 2200, sku: "VA-BH20-REC" },
      { title: "Primer bidón con envase", priceCents: 4500, sku: "VA-BH20-ENV" },
      { title: "Pack 3 recargas", priceCents: 6000, sku: "VA-BH20-R3" },
    ],
  },
  {
    slug: "bidon-retornable-oficina-20l",
    title: "Bidón retornable oficina 20 L",
    description: "Agua alcalina para tu equipo. Bidones retornables de 20 litros con entrega programada en tu oficina y recojo de envases vacíos.",
    image: "/images/products/bidon-oficina-20l.svg",
    priceCents: null,
    sku: "VA-BO20",
    garantiaCents: 2000,
    sortOrder: 5,
    weightLabel: "20.8kg",
    dimensionsLabel: "27 x 49 x 27cm",
    variants: [
      { title: "Pack 4 recargas", priceCents: 8400, sku: "VA-BO20-R4" },
      { title: "Pack 10 recargas", priceCents: 19900, sku: "VA-BO20-R10" },
      { title: "Pack 20 recargas", priceCents: 38000, sku: "VA-BO20-R20", active: false },
    ],
  },
  {
    slug: "caja-20l-con-dispensador",
    title: "Caja de 20 L con dispensador",
    description: "Caja de 20 litros con bolsa interior y caño dispensador. Se guarda fácil en la despensa y la caja es 100% reciclable.",
    image: "/images/products/caja-20l-dispensador.svg",
    priceCents: 5990,
    sku: "VA-CX20",
    sortOrder: 6,
    weightLabel: "20.5kg",
    dimensionsLabel: "25 x 32 x 33cm",
    variants: [],
  },
];
