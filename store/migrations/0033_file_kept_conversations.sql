-- 0033: conversations kept before every user had system folders (0032) are
-- filed as the pipeline files a new one: completed, kept (not discarded or
-- deleted), in no folder yet, into the user's system folder for their
-- category (appliance.FolderCategory: a category with a folder of its own
-- goes there, the others as mapped below, anything else to Other). Once: a
-- conversation the owner takes out of a folder afterwards stays out. A user
-- without system folders (one who had made their own) is left alone.
WITH mapped(category, folder) AS (VALUES
    ('business', 'work'), ('entrepreneurship', 'work'), ('legal', 'work'),
    ('family', 'personal'), ('parenting', 'personal'), ('romantic', 'personal'), ('spiritual', 'personal'),
    ('inspiration', 'personal'), ('sports', 'health'), ('science', 'education'), ('philosophy', 'education'),
    ('literature', 'education'), ('history', 'education'), ('psychology', 'education'), ('economics', 'finance'),
    ('architecture', 'technology'), ('design', 'technology'), ('music', 'entertainment'))
UPDATE conversations SET folder_id = (
    SELECT f.id FROM folders f
    WHERE f.user_id = conversations.user_id AND f.is_system = 1 AND f.category_mapping = COALESCE(
        (SELECT m.folder FROM mapped m WHERE m.category = conversations.category),
        (SELECT s.category_mapping FROM folders s WHERE s.user_id = conversations.user_id AND s.is_system = 1
            AND s.category_mapping = conversations.category),
        'other'))
WHERE folder_id IS NULL AND status = 'completed' AND discarded = 0 AND deleted = 0
  AND EXISTS (SELECT 1 FROM folders f WHERE f.user_id = conversations.user_id AND f.is_system = 1);
