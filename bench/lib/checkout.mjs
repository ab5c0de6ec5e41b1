// Checkout submission: the real checkout action (what the "Finalizar compra" button posts), each
// with its own checkout key, so every request creates one order with its items, delivery and
// payment attempt in one transaction. Loopback only; bounded by count and time.
import { randomUUID } from "node:crypto";
import { percentile } from "./load.mjs";

const limaDate = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima", year: "numeric", month: "2-digit", day: "2-digit" });

/** The `weeksAhead`-th Wednesday after today in Lima (0: the next): a weekday Miraflores (served Mon/Wed/Fri) accepts. */
export function nextWednesday(weeksAhead = 0) {
  const date = new Date(`${limaDate.format(new Date())}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  while (date.getUTCDay() !== 3) date.setUTCDate(date.getUTCDate() + 1);
  date.setUTCDate(date.getUTCDate() + 7 * weeksAhead);
  return date.toISOString().slice(0, 10);
}

/**
 * The first Wednesday from the next on that the shop takes an order for: a Wednesday that is a
 * national holiday (9 December, Batalla de Ayacucho; decision 0070) is closed, and a bench that
 * posted every order for it measured nothing but that refusal. Asked of the shop itself (one real
 * order per Wednesday tried), so the bench needs no copy of the holiday rules.
 */
export async function benchWednesday(origin) {
  for (let weeksAhead = 0; weeksAhead < 8; weeksAhead++) {
    const date = nextWednesday(weeksAhead);
    if ((await submit(origin, date)).ok) return date;
  }
  throw new Error("no Wednesday in the next 8 weeks takes an order");
}

function body(date) {
  return JSON.stringify({
    checkoutKey: randomUUID(),
    purchaseType: "one-time",
    subscriptionFrequency: "mensual",
    nombre: "Bench",
    apellido: "Cliente",
    correo: `bench-${randomUUID().slice(0, 8)}@example.pe`,
    telefono: "987654321",
    tipo_documento: "dni",
    dni: "12345678",
    districtId: 22,
    direccion: "Av. Larco 123",
    diaHabil: 3,
    fecha: date,
    rangoHorario: "manana",
    items: [
      { productId: 6, variantId: null, quantity: 1 },
      { productId: 1, variantId: 1, quantity: 2 },
    ],
    clientSubtotalCents: 11990,
  });
}

/**
 * The shop-wide pool has 120 places per window (the calendar's seed, decision 0037): without more,
 * the bench's 8 connections fill Wednesday mañana within the first second and measure the "Ese
 * horario acaba de llenarse" refusal (a 400) instead of orders. Staff raise it the way an operator
 * would, at /admin/calendario, to the most the form allows; the slot row is still locked and
 * counted for every order, so the claim costs what it costs in production.
 */
export async function raiseWednesdayCapacity(origin) {
  const login = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "admin@demo.pe", password: "Admin1234" }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (login.status !== 302 || !cookie.includes("session_token")) throw new Error(`staff sign-in failed (${login.status})`);
  const form = new URLSearchParams({ intent: "capacity-defaults" });
  for (let day = 1; day <= 7; day++)
    for (const window of ["manana", "tarde"]) form.set(`capacity-${day}-${window}`, day === 3 && window === "manana" ? "9999" : "120");
  const response = await fetch(`${origin}/admin/calendario`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: form,
  });
  const page = await response.text();
  if (response.status !== 200 || !page.includes("Cupos por día guardados")) throw new Error(`raising the capacity failed (${response.status})`);
}

export async function submit(origin, date) {
  const started = performance.now();
  const response = await fetch(`${origin}/checkout.data`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body(date),
    redirect: "manual",
  });
  await response.arrayBuffer();
  // A created order answers with the redirect to the payment page (as single-fetch data).
  const ok = response.status < 400;
  return { ms: performance.now() - started, ok };
}

export async function measureCheckout(origin, { sequential = 40, concurrentS = 10, connections = 8 } = {}) {
  await raiseWednesdayCapacity(origin);
  const date = await benchWednesday(origin);
  for (let i = 0; i < 5; i++) await submit(origin, date); // warm-up
  const one = [];
  let failures = 0;
  for (let i = 0; i < sequential; i++) {
    const result = await submit(origin, date);
    one.push(result.ms);
    if (!result.ok) failures += 1;
  }
  const sorted = Float64Array.from(one).sort();
  const deadline = performance.now() + concurrentS * 1000;
  const latencies = [];
  let concurrentFailures = 0;
  let placed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const result = await submit(origin, date);
        latencies.push(result.ms);
        if (result.ok) placed += 1;
        else concurrentFailures += 1;
      }
    }),
  );
  const concurrent = Float64Array.from(latencies).sort();
  const round = (value) => Math.round(value * 100) / 100;
  return {
    sequential: { count: sequential, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), failures },
    concurrent: {
      connections,
      seconds: concurrentS,
      // Only orders placed count: a refusal (a full window, a 500) is an answer, not an order.
      orders: placed,
      ordersPerSecond: round(placed / concurrentS),
      p50: round(percentile(concurrent, 50)),
      p95: round(percentile(concurrent, 95)),
      failures: concurrentFailures,
    },
  };
}
