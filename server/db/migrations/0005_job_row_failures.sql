CREATE TABLE "job_row_failures" (
	"job" text NOT NULL,
	"row_id" text NOT NULL,
	"message" text NOT NULL,
	"failures" integer DEFAULT 1 NOT NULL,
	"first_failed_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "job_row_failures_job_row_id_pk" PRIMARY KEY("job","row_id")
);
