import { useState } from "react";
import { invoicePdfHref } from "./invoice-rows";

/** Spec §8, invoice detail: the download could not even be attempted (no connection, aborted). */
export const DOWNLOAD_ERROR = "Error al descargar la factura";
/** Spec §8, invoice detail: the server answered, but without the file. */
export const DOWNLOAD_REFUSED = "No se pudo descargar la factura";

function filenameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
  return match?.[1] ?? fallback;
}

/**
 * Fetches the invoice's PDF and hands it to the browser as a download, so a failure is said on
 * the page (spec §8) instead of replacing it. Without JavaScript it is the plain link it renders.
 */
export async function downloadInvoicePdf(invoiceId: string, save: (blob: Blob, filename: string) => void): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(invoicePdfHref(invoiceId));
  } catch {
    return DOWNLOAD_ERROR;
  }
  if (!response.ok || !(response.headers.get("Content-Type") ?? "").startsWith("application/pdf")) {
    const text = (await response.text().catch(() => "")).trim();
    return text && text.length <= 120 && !text.startsWith("<") ? text : DOWNLOAD_REFUSED;
  }
  try {
    save(await response.blob(), filenameOf(response, `factura-${invoiceId}.pdf`));
    return null;
  } catch {
    return DOWNLOAD_ERROR;
  }
}

function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function DownloadPdfButton({ invoiceId, className = "" }: { invoiceId: string; className?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="flex flex-col items-start gap-2">
      <a
        href={invoicePdfHref(invoiceId)}
        aria-busy={busy}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
          event.preventDefault();
          if (busy) return;
          setBusy(true);
          setError(null);
          void downloadInvoicePdf(invoiceId, saveBlob).then((message) => {
            setError(message);
            setBusy(false);
          });
        }}
        className={`inline-flex items-center justify-center rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 ${className}`}
      >
        Descargar PDF
      </a>
      {error && (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
