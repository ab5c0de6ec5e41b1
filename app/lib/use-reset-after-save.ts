import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";

/**
 * Issue 24, defect 10 (decision 0073): a form that starts empty again after its own save (a new
 * note, a new product) or shows the stored values after it (an edit form) used to get a `key`
 * made of loader data — a random per-load id, a count, an update time. Every revalidation changed
 * it (another form of the page saved, a second staff member added a row), remounted the form and
 * erased what was being typed in it. This resets the form once its own submission has gone
 * through, and never otherwise: `refused` says whether the page's answer refused this form (its
 * typed values then stay, with the messages).
 *
 *   const { formRef, onSubmit } = useResetAfterSave(refused("create") !== undefined);
 *   <Form ref={formRef} onSubmit={onSubmit} …>
 */
export function useResetAfterSave(refused: boolean): {
  formRef: (form: HTMLFormElement | null) => void;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
} {
  // A callback ref (state), so the form element is never read during render.
  const [form, formRef] = useState<HTMLFormElement | null>(null);
  const submitted = useRef(false);
  const idle = useNavigation().state === "idle";
  useEffect(() => {
    if (!idle || !submitted.current) return;
    submitted.current = false;
    // The form's defaults are the values rendered after the save (React keeps each field's
    // default in step with its defaultValue), so a reset shows what is stored now.
    if (!refused) form?.reset();
  }, [idle, refused, form]);
  return {
    formRef,
    onSubmit: (event) => {
      if (!event.defaultPrevented) submitted.current = true;
    },
  };
}
