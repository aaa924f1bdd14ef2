package records

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance"
)

// FolderPatch is a folder to create, or the changes to one; nil fields
// stay (a new folder needs a name).
type FolderPatch struct {
	Name, Description, Color *string
}

// CreateFolder adds a folder.
func (s *Service) CreateFolder(ctx context.Context, userID string, p FolderPatch) (*appliance.Folder, error) {
	if p.Name == nil {
		return nil, appliance.Errorf(appliance.EINVALID, "Name is required")
	}
	f := &appliance.Folder{ID: newID(), UserID: userID, CreatedAt: s.clock()}
	if err := applyFolder(f, p); err != nil {
		return nil, err
	}
	if err := s.store.CreateFolder(ctx, f); err != nil {
		return nil, err
	}
	return f, nil
}

// UpdateFolder changes a folder: ErrNothingToChange, then ENOTFOUND
// "Folder not found".
func (s *Service) UpdateFolder(ctx context.Context, userID, id string, p FolderPatch) (*appliance.Folder, error) {
	if p.Name == nil && p.Description == nil && p.Color == nil {
		return nil, ErrNothingToChange
	}
	f, err := s.store.Folder(ctx, userID, id)
	if err != nil {
		return nil, notFound(err, "Folder not found")
	}
	if err := applyFolder(f, p); err != nil {
		return nil, err
	}
	if err := s.store.UpdateFolder(ctx, f); err != nil {
		return nil, notFound(err, "Folder not found")
	}
	return f, nil
}

func applyFolder(f *appliance.Folder, p FolderPatch) error {
	if p.Name != nil {
		name, err := text("Name", *p.Name, MaxName)
		if err != nil {
			return err
		}
		f.Name = name
	}
	if p.Description != nil {
		f.Description = *p.Description
	}
	if p.Color != nil {
		f.Color = *p.Color
	}
	return nil
}

// DeleteFolder deletes a folder; its conversations stay, out of any folder.
func (s *Service) DeleteFolder(ctx context.Context, userID, id string) error {
	return notFound(s.store.DeleteFolder(ctx, userID, id), "Folder not found")
}
