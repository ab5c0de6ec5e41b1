/**
 * zod with Spanish messages (issue 9): every schema of the shop imports `z` from here, so an
 * issue without its own message still reads as Spanish, on the server and in the browser alike.
 * A small map of our own rather than `z.locales.es()`: its wording is a developer's ("se esperaba
 * número, recibido indefinido") and it would add ~4 KB to every page that validates a form
 * (decision 0027-malformed-input).
 */
import "./zod-without-eval";
import { z } from "zod";

type Issue = z.core.$ZodRawIssue;

export function spanishIssueMessage(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined || issue.input === null ? "Completa este campo" : "El valor ingresado no es válido";
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "Completa este campo" : `Debe tener al menos ${issue.minimum} caracteres`;
      if (issue.origin === "array") return Number(issue.minimum) <= 1 ? "Agrega al menos un elemento" : `Debe tener al menos ${issue.minimum} elementos`;
      return `Debe ser como mínimo ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `Debe tener como máximo ${issue.maximum} caracteres`;
      if (issue.origin === "array") return `Debe tener como máximo ${issue.maximum} elementos`;
      return `Debe ser como máximo ${issue.maximum}`;
    case "invalid_format":
      return issue.format === "email" ? "Ingresa un correo válido" : "El formato no es válido";
    case "invalid_value":
      return "Elige una opción válida";
    case "unrecognized_keys":
      return "La solicitud trae datos que no esperábamos";
    default:
      return "El valor ingresado no es válido";
  }
}

z.config({ customError: spanishIssueMessage });

export { z };
