import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { organizations, subscriptions } from "../../db/schema";
import { changeOwnedSubscription, refuse, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

/** Change the organisation the subscription supports (issue 5, social causes); none is allowed. */
export async function changeSubscriptionOrganization(db: Database, input: SelfServiceContext & { organizationId: number | null }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "organization", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "organization");
    if (refusal) return refusal;
    if (input.organizationId === subscription.organizationId) return refuse("Esa ya es la organización que apoyas", "organizationId");
    let title: string | null = null;
    if (input.organizationId !== null) {
      const [organization] = Number.isInteger(input.organizationId)
        ? await tx
            .select({ title: organizations.title })
            .from(organizations)
            .where(and(eq(organizations.id, input.organizationId), eq(organizations.active, true)))
        : [];
      if (!organization) return refuse("Elige una organización de la lista", "organizationId");
      title = organization.title;
    }
    await tx.update(subscriptions).set({ organizationId: input.organizationId, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    return {
      kind: "organization_changed",
      description: title ? `Ahora tu suscripción apoya a ${title}.` : "Tu suscripción ya no apoya a ninguna organización.",
      details: { previous: subscription.organizationId, organizationId: input.organizationId },
    };
  });
}
