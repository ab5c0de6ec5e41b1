import { Form } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import { MAX_PRODUCT_IMAGES } from "@core/catalog-schemas";
import { ImageUploadField } from "./catalog-forms";
import { ContentField, contentCardClass } from "./content-form";
import { StaffFormError, staffPrimaryButtonClass } from "./staff-form";
import type { GalleryImage } from "@server/catalog/index.server";

/** What a refused gallery form answers: the message, the field errors and what was typed. */
interface Refusal {
  error?: string | null;
  values?: Record<string, string>;
  fieldErrors?: Record<string, string>;
}

const secondaryButtonClass = "rounded-xl border border-slate-300 bg-white px-3 py-2 font-semibold text-slate-800 hover:border-brand-600";
const ALT_HELP = "Describe la foto para quien no la ve. Si lo dejas vacío, usamos el nombre del producto.";

/**
 * The product's pictures on /admin/productos/:id (decision 0057): each with its text alternative
 * and buttons to make it the main one, move it or take it out; then the form that adds one. Plain
 * forms, so all of it works without JavaScript. A move names the position it goes to, so a repeated
 * click moves nothing twice.
 */
export function ProductGalleryEditor({ images, refused }: { images: GalleryImage[]; refused: (intent: string) => Refusal | undefined }) {
  const total = images.length;
  const { formRef: uploadFormRef, onSubmit: onUploadFormSubmit } = useResetAfterSave(refused("image-add") !== undefined);
  return (
    <section aria-labelledby="imagenes" className="space-y-4">
      <h2 id="imagenes" className="text-lg font-bold text-slate-900">
        Imágenes
      </h2>
      <p className="text-slate-700">
        La primera es la imagen principal: la que se ve en la tienda, el carrito y al compartir el producto. Hasta {MAX_PRODUCT_IMAGES} imágenes.
      </p>
      {total > 0 && (
        <ol className="space-y-4">
          {images.map((picture, index) => {
            const position = index + 1;
            const refusal = refused(`image-alt:${picture.id}`);
            const name = `imagen ${position}`;
            return (
              <li key={picture.id}>
                <Form method="post" className={contentCardClass} aria-label={`Imagen ${position} de ${total}`}>
                  <StaffFormError message={refusal?.error} />
                  <input type="hidden" name="imageId" value={picture.id} />
                  <div className="flex flex-wrap items-start gap-4">
                    <img src={picture.image} alt="" width={96} height={96} className="h-24 w-24 shrink-0 rounded-xl bg-sky-50 object-contain" />
                    <div className="min-w-0 flex-1 space-y-3">
                      <p className="font-semibold text-slate-900">
                        Imagen {position}
                        {position === 1 && " · principal"}
                      </p>
                      <ContentField
                        idPrefix={`img${picture.id}-`}
                        name="alt"
                        label="Texto alternativo (opcional)"
                        defaultValue={refusal?.values?.alt ?? picture.alt}
                        error={refusal?.fieldErrors?.alt}
                        help={ALT_HELP}
                      />
                    </div>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <button type="submit" name="intent" value="image-alt" className={secondaryButtonClass}>
                      Guardar texto<span className="sr-only"> de la {name}</span>
                    </button>
                    {position > 1 && (
                      <button type="submit" name="intent" value="image-move:1" className={secondaryButtonClass}>
                        Hacer principal<span className="sr-only"> la {name}</span>
                      </button>
                    )}
                    {position > 1 && (
                      <button type="submit" name="intent" value={`image-move:${position - 1}`} className={secondaryButtonClass}>
                        Subir<span className="sr-only"> la {name}</span>
                      </button>
                    )}
                    {position < total && (
                      <button type="submit" name="intent" value={`image-move:${position + 1}`} className={secondaryButtonClass}>
                        Bajar<span className="sr-only"> la {name}</span>
                      </button>
                    )}
                    <button type="submit" name="intent" value="image-remove" className={`${secondaryButtonClass} text-red-800`}>
                      Quitar<span className="sr-only"> la {name}</span>
                    </button>
                  </div>
                </Form>
              </li>
            );
          })}
        </ol>
      )}
      {total < MAX_PRODUCT_IMAGES ? (
        <Form
          ref={uploadFormRef}
          onSubmit={onUploadFormSubmit}
          method="post"
          encType="multipart/form-data"
          className={contentCardClass}
          aria-labelledby="nueva-imagen"
        >
          <h3 id="nueva-imagen" className="font-bold text-slate-900">
            {total === 0 ? "Agregar la imagen principal" : "Agregar otra imagen"}
          </h3>
          <GalleryUploadFields refusal={refused("image-add")} />
          <button type="submit" name="intent" value="image-add" className={staffPrimaryButtonClass}>
            Agregar imagen
          </button>
        </Form>
      ) : (
        <p className="rounded-xl bg-slate-50 px-4 py-3 text-slate-700">
          Este producto ya tiene {MAX_PRODUCT_IMAGES} imágenes, el máximo. Quita una para agregar otra.
        </p>
      )}
    </section>
  );
}

function GalleryUploadFields({ refusal }: { refusal: Refusal | undefined }) {
  return (
    <>
      <StaffFormError message={refusal?.error} />
      <ImageUploadField idPrefix="galeria-" label="Nueva imagen" current={null} error={refusal?.fieldErrors?.imageFile} />
      <ContentField
        idPrefix="galeria-"
        name="alt"
        label="Texto alternativo (opcional)"
        defaultValue={refusal?.values?.alt}
        error={refusal?.fieldErrors?.alt}
        help={ALT_HELP}
      />
    </>
  );
}
