package api

import (
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// Recordings are the conversations' kept audio (recordings.Keeper).
type Recordings interface {
	Files(user, conv string) (appliance.AudioFiles, error)
	Open(user, conv, id string) (*os.File, error)
	Status(user string) appliance.AudioStatus
}

// audioMIME is a kept recording's media type.
const audioMIME = "audio/ogg; codecs=opus"

// GET /console/api/conversations/{id}/audio/{file}: one of the signed-in
// user's conversation's recordings, with Range requests (the player
// seeks). Another user's conversation is a 404, as it is everywhere on
// the console: the path's conversation is looked up as the signed-in
// user's own.
func (s *Server) consoleAudio(c echo.Context) error {
	if s.recordings == nil {
		return errNotFound("Recording not found")
	}
	ctx, uid := c.Request().Context(), userID(c)
	if _, err := s.store.ConversationHead(ctx, uid, c.Param("id")); err != nil {
		return notFoundAs(err, "Recording not found")
	}
	f, err := s.recordings.Open(uid, c.Param("id"), c.Param("file"))
	if err != nil {
		return notFoundAs(err, "Recording not found")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, audioMIME)
	h.Set("Cache-Control", "private, no-cache")
	// ServeContent answers Range and If-Range; a file still being written
	// grows, and its size is read at the request.
	http.ServeContent(c.Response(), c.Request(), "", st.ModTime().Truncate(time.Second), f)
	return nil
}

// audioFilesOf lists a conversation's recordings for its owner; a failure
// is logged and lists none.
func (s *Server) audioFilesOf(uid, conv string) appliance.AudioFiles {
	if s.recordings == nil {
		return nil
	}
	fs, err := s.recordings.Files(uid, conv)
	if err != nil {
		s.log.Warn("list a conversation's audio", "conversation_id", conv, "err", err)
	}
	return fs
}
