import { and, desc, eq, inArray, ne, type SQL } from "drizzle-orm";
import { customerDelivery, type CustomerDelivery } from "@core/customer-delivery";
import { limaToday } from "@core/lima-dates";
import type { InvoiceStatus } from "@core/invoice-list";
import type { Database } from "../db/client";
import { alias } from "drizzle-orm/pg-core";
import { readDistricts } from "../content/index.server";
import { deliveries, invoices, orderItems, orders, type ElectronicStatus } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { effectiveInvoiceStatus, sortInvoicesForList } from "./invoice-status";

/** One row of /dashboard/facturas. */
export interface InvoiceListItem {
  id: string;
  invoiceNumber: string;
  documentType: string;
  orderId: string;
  orderNumber: string;
  issuedAt: Date;
  /** Issue date in Lima, `YYYY-MM-DD`. */
  issuedOn: string;
  dueDate: string;
  totalCents: number;
  status: InvoiceStatus;
  paymentMethod: string | null;
  /** The OSE's XML and SUNAT's CDR (decision 0045); none with the offline provider. */
  xmlUrl: string | null;
  cdrUrl: string | null;
}

/** Everything /dashboard/facturas/{id} and the printed invoice show. */
export interface InvoiceDetail extends InvoiceListItem {
  series: string;
  number: number;
  /** Where the comprobante is with SUNAT (decision 0045); `local` ones are not tax documents. */
  electronicStatus: ElectronicStatus;
  /** SUNAT's QR text and the document's hash, once the OSE answered. */
  qrText: string | null;
  hash: string | null;
  /** A nota de crédito: the document it modifies, and why. */
  modifiesInvoiceNumber: string | null;
  creditNoteReason: string | null;
  taxableCents: number;
  igvCents: number;
  paidAt: Date | null;
  customer: {
    /** Apellidos y nombres on a boleta, razón social on a factura. */
    name: string;
    documentType: string;
    documentNumber: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
  };
  order: {
    id: string;
    orderNumber: string;
    status: string;
    orderType: string;
    subscriptionFrequency: string | null;
    createdAt: Date;
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    totalCents: number;
    address: string;
    districtName: string;
    deliveryDate: string;
    deliveryWindow: string;
    deliveryNotes: string | null;
  };
  items: { title: string; variantTitle: string | null; sku: string | null; quantity: number; unitPriceCents: number; lineTotalCents: number }[];
  delivery: CustomerDelivery | null;
  district: { name: string; province: string; ubigeo: string } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const related = alias(invoices, "related_invoice");

const listColumns = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  documentType: invoices.documentType,
  orderId: invoices.orderId,
  orderNumber: orders.orderNumber,
  issuedAt: invoices.issuedAt,
  dueDate: invoices.dueDate,
  totalCents: invoices.totalCents,
  storedStatus: invoices.status,
  paymentMethod: invoices.paymentMethod,
  xmlUrl: invoices.xmlUrl,
  cdrUrl: invoices.cdrUrl,
};

function toListItem(row: { storedStatus: string } & Omit<InvoiceListItem, "status" | "issuedOn">, today: string): InvoiceListItem {
  const { storedStatus, ...rest } = row;
  return { ...rest, issuedOn: limaToday(row.issuedAt), status: effectiveInvoiceStatus(storedStatus, row.dueDate, today) };
}

/** A number SUNAT rejected is burnt: it is not one of the customer's documents (its re-issue is). */
const notBurnt = ne(invoices.electronicStatus, "rejected");

/** Spec §7: the user's invoices (invoices joined with their orders), in the spec §9 order. */
export async function listInvoicesForUser(db: Database, userId: string, { now }: { now: Date }): Promise<InvoiceListItem[]> {
  const rows = await db
    .select(listColumns)
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(eq(orders.userId, userId), notBurnt));
  const today = limaToday(now);
  return sortInvoicesForList(rows.map((row) => toListItem(row, today)));
}

/** The user's invoice with its order, items, delivery, district and customer; null when it is not theirs. */
export async function findInvoiceForUser(db: DatabaseOrTransaction, userId: string, invoiceId: string, { now }: { now: Date }): Promise<InvoiceDetail | null> {
  if (!UUID.test(invoiceId)) return null;
  const [invoice] = await loadInvoiceDetails(db, and(eq(invoices.id, invoiceId), eq(orders.userId, userId))!, now);
  return invoice ?? null;
}

/** Every invoice of the user in full, in the list's order (for the zip and the email). */
export async function findAllInvoicesForUser(db: DatabaseOrTransaction, userId: string, { now }: { now: Date }): Promise<InvoiceDetail[]> {
  return sortInvoicesForList(await loadInvoiceDetails(db, and(eq(orders.userId, userId), notBurnt)!, now));
}

/** Invoices by id, whoever owns them: only for references the shop itself stored (email attachments). */
export async function findInvoicesByIds(db: DatabaseOrTransaction, ids: string[], { now }: { now: Date }): Promise<InvoiceDetail[]> {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return [];
  return loadInvoiceDetails(db, inArray(invoices.id, valid), now);
}

/** Loads invoices with everything around them in four queries, however many there are. */
async function loadInvoiceDetails(db: DatabaseOrTransaction, where: SQL, now: Date): Promise<InvoiceDetail[]> {
  const rows = await db
    .select({
      ...listColumns,
      series: invoices.series,
      number: invoices.number,
      taxableCents: invoices.taxableCents,
      igvCents: invoices.igvCents,
      paidAt: invoices.paidAt,
      customerName: invoices.customerName,
      customerDocumentType: invoices.customerDocumentType,
      customerDocumentNumber: invoices.customerDocumentNumber,
      electronicStatus: invoices.electronicStatus,
      qrText: invoices.qrText,
      hash: invoices.hash,
      creditNoteReason: invoices.creditNoteReason,
      modifiesInvoiceNumber: related.invoiceNumber,
      order: orders,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .leftJoin(related, and(eq(related.id, invoices.relatedInvoiceId), eq(invoices.documentType, "nota_credito")))
    .where(where);
  if (rows.length === 0) return [];
  const orderIds = rows.map((row) => row.orderId);
  const districtIds = [...new Set(rows.map((row) => row.order.districtId))];
  // One after the other: `db` may be a transaction, whose single connection takes one query at a time.
  const itemRows = await db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(orderItems.id);
  const deliveryRows = await db.select().from(deliveries).where(inArray(deliveries.orderId, orderIds)).orderBy(desc(deliveries.createdAt));
  const districtRows = await readDistricts(db, districtIds);
  const today = limaToday(now);
  return rows.map((row) => {
    const {
      order,
      customerName,
      customerDocumentType,
      customerDocumentNumber,
      series,
      number,
      taxableCents,
      igvCents,
      paidAt,
      electronicStatus,
      qrText,
      hash,
      creditNoteReason,
      modifiesInvoiceNumber,
      ...listRow
    } = row;
    const orderItemsOf = itemRows
      .filter((item) => item.orderId === order.id)
      .map((item) => ({
        title: item.title,
        variantTitle: item.variantTitle,
        sku: item.sku,
        quantity: item.quantity,
        unitPriceCents: item.unitPriceCents,
        lineTotalCents: item.lineTotalCents,
      }));
    // A partial nota de crédito is one line for the amount given back (comprobante-document.ts).
    const partialNote = listRow.documentType === "nota_credito" && listRow.totalCents !== order.totalCents;
    const delivery = deliveryRows.find((candidate) => candidate.orderId === order.id);
    const district = districtRows.find((candidate) => candidate.id === order.districtId);
    return {
      ...toListItem(listRow, today),
      series,
      number,
      taxableCents,
      igvCents,
      paidAt,
      electronicStatus,
      qrText,
      hash,
      modifiesInvoiceNumber,
      creditNoteReason,
      customer: {
        name: customerName,
        documentType: customerDocumentType,
        documentNumber: customerDocumentNumber,
        firstName: order.customerFirstName,
        lastName: order.customerLastName,
        email: order.customerEmail,
        phone: order.customerPhone,
      },
      order: {
        id: order.id,
        orderNumber: order.orderNumber,
        status: order.status,
        orderType: order.orderType,
        subscriptionFrequency: order.subscriptionFrequency,
        createdAt: order.createdAt,
        subtotalCents: order.subtotalCents,
        discountCents: order.discountCents,
        shippingCents: order.shippingCents,
        totalCents: order.totalCents,
        address: order.address,
        districtName: order.districtName,
        deliveryDate: order.deliveryDate,
        deliveryWindow: order.deliveryWindow,
        deliveryNotes: order.deliveryNotes,
      },
      items: partialNote
        ? [
            {
              title: `Devolución parcial: ${creditNoteReason ?? ""}`,
              variantTitle: null,
              sku: null,
              quantity: 1,
              unitPriceCents: listRow.totalCents,
              lineTotalCents: listRow.totalCents,
            },
          ]
        : [...orderItemsOf, ...garantiaItemOf(order, listRow.documentType)],
      delivery: delivery ? customerDelivery(delivery) : null,
      district: district ? { name: district.name, province: district.province, ubigeo: district.ubigeo } : null,
    };
  });
}

/** The bidón garantía's line on a boleta or factura that carries it (decision 0075). */
function garantiaItemOf(order: typeof orders.$inferSelect, documentType: string) {
  if (documentType === "nota_credito" || order.garantiaCents <= 0 || !order.garantiaOnComprobante) return [];
  const units = Math.max(1, order.garantiaUnits);
  return [
    {
      title: "Garantía de bidón retornable (inafecta)",
      variantTitle: null,
      sku: "GARANTIA",
      quantity: units,
      unitPriceCents: Math.round(order.garantiaCents / units),
      lineTotalCents: order.garantiaCents,
    },
  ];
}
