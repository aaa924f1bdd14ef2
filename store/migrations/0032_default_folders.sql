-- 0032: every user has the reference's system folders (Personal, Work,
-- Health, Education, Finance, Travel, Social, Technology, Entertainment,
-- Other), which the pipeline files conversations in by category. Users
-- created before this get them here, as the reference initialises a user
-- with no folders; a user who already made folders keeps only those. The
-- list is appliance.DefaultFolders.
ALTER TABLE folders ADD COLUMN icon TEXT NOT NULL DEFAULT '';
ALTER TABLE folders ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
ALTER TABLE folders ADD COLUMN is_system INTEGER NOT NULL DEFAULT 0;
ALTER TABLE folders ADD COLUMN category_mapping TEXT NOT NULL DEFAULT '';

WITH defaults(position, name, mapping, icon, color, description) AS (VALUES
    (0, 'Personal', 'personal', '👤', '#3B82F6', 'Personal life, family matters, self-improvement, and home-related topics'),
    (1, 'Work', 'work', '💼', '#EF4444', 'Work meetings, job-related discussions, projects, and professional conversations'),
    (2, 'Health', 'health', '🏥', '#10B981', 'Doctor visits, medical discussions, fitness, gym, diet, and mental wellness'),
    (3, 'Education', 'education', '📚', '#8B5CF6', 'Learning, courses, studying, school, tutorials, and educational content'),
    (4, 'Finance', 'finance', '💰', '#F59E0B', 'Money, budgeting, investments, banking, and financial planning'),
    (5, 'Travel', 'travel', '✈️', '#06B6D4', 'Trips, vacations, flights, hotels, and travel planning'),
    (6, 'Social', 'social', '👥', '#EC4899', 'Friends, social gatherings, parties, and casual hangouts'),
    (7, 'Technology', 'technology', '💻', '#6366F1', 'Software, coding, tech discussions, apps, and technical topics'),
    (8, 'Entertainment', 'entertainment', '🎬', '#F97316', 'Movies, music, games, shows, and fun activities'),
    (9, 'Other', 'other', '📁', '#6B7280', 'Anything that doesn''t fit into other folders'))
INSERT INTO folders (id, user_id, name, description, color, is_default, created_at, icon, position, is_system, category_mapping)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
           || substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       u.id, d.name, d.description, d.color, d.mapping = 'other',
       strftime('%Y-%m-%dT%H:%M:%S', 'now') || '.000000Z', d.icon, d.position, 1, d.mapping
FROM users u CROSS JOIN defaults d
WHERE NOT EXISTS (SELECT 1 FROM folders f WHERE f.user_id = u.id);

CREATE INDEX folders_user_category ON folders(user_id, category_mapping) WHERE is_system = 1;
