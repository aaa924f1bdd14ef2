package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// GET /v1/dev/user/folders
func (s *Server) listFolders(c echo.Context) error {
	fs, err := s.store.Folders(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, fs)
}

// POST /v1/dev/user/folders {name, description?, color?}
func (s *Server) createFolder(c echo.Context) error {
	p, err := s.readFolder(c, true)
	if err != nil {
		return err
	}
	folder, err := s.records.CreateFolder(c.Request().Context(), userID(c), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, folder)
}

// readFolder reads a folder's fields; a new one needs a name.
func (s *Server) readFolder(c echo.Context, create bool) (records.FolderPatch, error) {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return records.FolderPatch{}, err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	var p records.FolderPatch
	if name, ok := f.boundedStr("name", create, records.MaxName); ok {
		p.Name = &name
	}
	if desc, ok := f.str("description", false); ok {
		p.Description = &desc
	}
	if color, ok := f.str("color", false); ok {
		p.Color = &color
	}
	return p, v.Err()
}

// PATCH /v1/dev/user/folders/{id}
func (s *Server) patchFolder(c echo.Context) error {
	p, err := s.readFolder(c, false)
	if err != nil {
		return err
	}
	folder, err := s.records.UpdateFolder(c.Request().Context(), userID(c), c.Param("id"), p)
	if errors.Is(err, records.ErrNothingToChange) {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	} else if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, folder)
}

// DELETE /v1/dev/user/folders/{id}: the conversations stay, out of any folder.
func (s *Server) deleteFolder(c echo.Context) error {
	if err := s.records.DeleteFolder(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}

// PUT /v1/dev/user/conversations/{id}/folder {folder_id: string | null}
func (s *Server) moveConversation(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	if _, present := m["folder_id"]; !present {
		return errUnprocessable("missing", "Field required", "body", "folder_id")
	}
	v := &appliance.ValidationError{}
	folderID, hasFolder := newFields(m, v, "body").str("folder_id", false)
	if err := v.Err(); err != nil {
		return err
	}
	var target *string
	if hasFolder {
		target = &folderID
	}
	ctx, uid := c.Request().Context(), userID(c)
	conv, err := s.conv.Move(ctx, uid, c.Param("id"), target)
	if err != nil {
		return err
	}
	out, err := s.devConversations(ctx, uid, []*appliance.Conversation{conv}, false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}
