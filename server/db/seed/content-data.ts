/** Demo organisations, history slides and settings; legal texts live in legal-texts.ts. */
export const seedOrganizations = [
  {
    title: "Bosques Vivos Lima",
    description: "Reforestamos lomas y quebradas de Lima con especies nativas. Cada suscripción ayuda a plantar y regar un árbol nuevo al mes.",
    image: "/images/organizations/reforestacion.svg",
  },
  {
    title: "Red de Comedores Populares",
    description: "Apoyamos a comedores populares de Lima Sur con agua segura para cocinar y con insumos para miles de raciones diarias.",
    image: "/images/organizations/comedores-populares.svg",
  },
  {
    title: "Playas Limpias Perú",
    description: "Jornadas mensuales de limpieza de playas en la Costa Verde y el sur chico, con voluntarios y reciclaje de todo lo recogido.",
    image: "/images/organizations/limpieza-playas.svg",
  },
  {
    title: "Agua para Escuelas",
    description: "Instalamos bebederos y filtros en escuelas públicas para que niñas y niños tengan agua segura durante la jornada escolar.",
    image: "/images/organizations/agua-para-escuelas.svg",
  },
];

export const seedHistoryEntries = [
  {
    title: "Marzo 2025: nace nuestra presentación personal",
    description: "Lanzamos la botella personal de 625 ml y la botella sport de 1 litro, nuestras primeras presentaciones.",
    image: "/images/history/lanzamiento-personal.svg",
    sortOrder: 1,
  },
  {
    title: "Junio 2025: nuevos puntos de distribución",
    description: "Abrimos nuevos puntos de distribución para llegar a más distritos de Lima en menos tiempo.",
    image: "/images/history/puntos-distribucion.svg",
    sortOrder: 2,
  },
  {
    title: "Octubre 2025: materiales reciclables",
    description: "Incorporamos materiales reciclables en toda la cadena de valor, desde la botella hasta la caja.",
    image: "/images/history/materiales-reciclables.svg",
    sortOrder: 3,
  },
  {
    title: "2026: una comunidad que suma",
    description: "Nuestros suscriptores eligen cada mes la causa social que apoyan. Juntos hacemos que cada gota cuente.",
    image: "/images/history/comunidad.svg",
    sortOrder: 4,
  },
];

export const seedSiteSettings = {
  id: 1,
  brandName: "Vida Alcalina",
  whatsappNumber: "51987654321",
  whatsappGreeting: "¡Hola Vida Alcalina! Quisiera información sobre el agua alcalina y las suscripciones.",
  contactEmail: "hola@vidaalcalina.pe",
  instagramUrl: "https://www.instagram.com/vidaalcalina.pe",
  facebookUrl: "https://www.facebook.com/vidaalcalina.pe",
  tiktokUrl: "https://www.tiktok.com/@vidaalcalina.pe",
  closingCtaLabel: "Compra ahora",
};

export const LEGAL_UPDATED_ON = "2025-08-15";
