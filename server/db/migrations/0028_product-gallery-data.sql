-- Decision 0057: each product's single picture becomes the first of its gallery. `products.image`
-- stays as it is (it is the gallery's first picture from now on). Products already in the gallery
-- are left alone, so running this again adds nothing.
INSERT INTO "product_images" ("product_id", "image", "position")
SELECT p."id", p."image", 1
FROM "products" AS p
WHERE p."image" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "product_images" AS i WHERE i."product_id" = p."id");
