package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
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
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	folder := &appliance.Folder{ID: newID(), UserID: userID(c), CreatedAt: s.now().UTC()}
	folder.Name, _ = f.boundedStr("name", true, 100)
	folder.Description, _ = f.str("description", false)
	folder.Color, _ = f.str("color", false)
	if err := v.Err(); err != nil {
		return err
	}
	if err := s.store.CreateFolder(c.Request().Context(), folder); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, folder)
}

// PATCH /v1/dev/user/folders/{id}
func (s *Server) patchFolder(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	name, hasName := f.boundedStr("name", false, 100)
	desc, hasDesc := f.str("description", false)
	color, hasColor := f.str("color", false)
	if err := v.Err(); err != nil {
		return err
	}
	if !hasName && !hasDesc && !hasColor {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	}
	ctx := c.Request().Context()
	folder, err := s.store.Folder(ctx, userID(c), c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Folder not found")
	}
	if hasName {
		folder.Name = name
	}
	if hasDesc {
		folder.Description = desc
	}
	if hasColor {
		folder.Color = color
	}
	if err := s.store.UpdateFolder(ctx, folder); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, folder)
}

// DELETE /v1/dev/user/folders/{id}: the conversations stay, out of any folder.
func (s *Server) deleteFolder(c echo.Context) error {
	if err := s.store.DeleteFolder(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return notFoundAs(err, "Folder not found")
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
