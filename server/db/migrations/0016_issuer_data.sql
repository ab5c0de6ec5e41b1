ALTER TABLE "site_settings" ADD COLUMN "issuer_legal_name" text DEFAULT 'VIDA ALCALINA S.A.C.' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "issuer_ruc" text DEFAULT '20601234565' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "issuer_fiscal_address" text DEFAULT 'Av. Benavides 1555, of. 302, Miraflores, Lima, Perú' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "issuer_phone" text DEFAULT '+51 987 654 321' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "issuer_is_demo" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Legal texts name the issuer through placeholders filled from site settings (one source with the comprobantes).
UPDATE "legal_texts" SET "content_html" = replace("content_html", '<strong>Vida Alcalina S.A.C.</strong>, con RUC N.° 20612345678 y domicilio en Av. José Larco 1232, Miraflores, Lima, Perú', '<strong>{{razon_social}}</strong>, con RUC N.° {{ruc}} y domicilio en {{domicilio_fiscal}}');
