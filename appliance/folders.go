package appliance

import "time"

// DefaultFolder is one of the folders every user starts with, as the
// reference creates them: its name, the folder category it stands for, and
// how it looks. The one for "other" is the default folder.
type DefaultFolder struct {
	Name, CategoryMapping, Icon, Color, Description string
}

// DefaultFolders are the reference's system folders, in their order.
// Migration 0032 inserts the same list for users created before it.
var DefaultFolders = []DefaultFolder{
	{"Personal", "personal", "👤", "#3B82F6", "Personal life, family matters, self-improvement, and home-related topics"},
	{"Work", "work", "💼", "#EF4444", "Work meetings, job-related discussions, projects, and professional conversations"},
	{"Health", "health", "🏥", "#10B981", "Doctor visits, medical discussions, fitness, gym, diet, and mental wellness"},
	{"Education", "education", "📚", "#8B5CF6", "Learning, courses, studying, school, tutorials, and educational content"},
	{"Finance", "finance", "💰", "#F59E0B", "Money, budgeting, investments, banking, and financial planning"},
	{"Travel", "travel", "✈️", "#06B6D4", "Trips, vacations, flights, hotels, and travel planning"},
	{"Social", "social", "👥", "#EC4899", "Friends, social gatherings, parties, and casual hangouts"},
	{"Technology", "technology", "💻", "#6366F1", "Software, coding, tech discussions, apps, and technical topics"},
	{"Entertainment", "entertainment", "🎬", "#F97316", "Movies, music, games, shows, and fun activities"},
	{"Other", "other", "📁", "#6B7280", "Anything that doesn't fit into other folders"},
}

// NewDefaultFolders returns a user's system folders, ready to store.
func NewDefaultFolders(userID string, now time.Time) []*Folder {
	out := make([]*Folder, len(DefaultFolders))
	for i, d := range DefaultFolders {
		out[i] = &Folder{ID: NewID(), UserID: userID, Name: d.Name, Description: d.Description, Color: d.Color, Icon: d.Icon,
			Order: i, IsDefault: d.CategoryMapping == "other", IsSystem: true, CategoryMapping: d.CategoryMapping, CreatedAt: now}
	}
	return out
}

// folderOf maps the conversation categories without a folder of their own
// to one, as the reference files them.
var folderOf = map[Category]string{
	"business": "work", "entrepreneurship": "work", "legal": "work",
	"family": "personal", "parenting": "personal", "romantic": "personal", "spiritual": "personal", "inspiration": "personal",
	"sports":  "health",
	"science": "education", "philosophy": "education", "literature": "education", "history": "education", "psychology": "education",
	"economics":    "finance",
	"architecture": "technology", "design": "technology",
	"music": "entertainment",
}

// FolderCategory is the system folder (its CategoryMapping) a conversation
// of category c is filed in.
func FolderCategory(c Category) string {
	for _, d := range DefaultFolders {
		if string(c) == d.CategoryMapping {
			return d.CategoryMapping
		}
	}
	if f, ok := folderOf[c]; ok {
		return f
	}
	return "other"
}
