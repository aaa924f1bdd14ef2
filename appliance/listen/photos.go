package listen

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // photo formats a wearable's camera sends
	_ "image/jpeg"
	_ "image/png"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// Limits on photos a session reassembles from image_chunk messages.
const (
	maxPhotoChunks   = 1024     // pieces of one photo
	maxPhotoBase64   = 12 << 20 // one photo's base64, about 9 MB of image
	maxPhotosPending = 4        // photos being reassembled at once
	photoChunkMaxAge = 2 * time.Minute
)

// photoAssembly gathers one photo's base64 pieces, which are parts of one
// base64 string (not separately decodable).
type photoAssembly struct {
	parts   []string
	have    int
	size    int
	started time.Time
}

// imageChunk takes one piece of a photo; when the last piece arrives the
// photo is stored with the recording, and the client told
// photo_processing {temp_id, photo_id} then photo_described {photo_id,
// description, discarded}. Out-of-range or oversized pieces are counted and
// ignored, and a photo left incomplete for two minutes is dropped.
func (s *session) imageChunk(ctx context.Context, m clientMessage) {
	if m.ID == "" || len(m.ID) > 128 || m.Total < 1 || m.Total > maxPhotoChunks || m.Index < 0 || m.Index >= m.Total {
		s.badJSON.Add(1)
		return
	}
	s.mu.Lock()
	now := s.now()
	for id, p := range s.photos {
		if now.Sub(p.started) > photoChunkMaxAge {
			delete(s.photos, id)
		}
	}
	p, ok := s.photos[m.ID]
	if !ok {
		if len(s.photos) >= maxPhotosPending {
			s.mu.Unlock()
			s.badJSON.Add(1)
			return
		}
		p = &photoAssembly{parts: make([]string, m.Total), started: now}
		if s.photos == nil {
			s.photos = map[string]*photoAssembly{}
		}
		s.photos[m.ID] = p
	}
	if len(p.parts) != m.Total || p.size+len(m.Data) > maxPhotoBase64 {
		delete(s.photos, m.ID)
		s.mu.Unlock()
		s.badJSON.Add(1)
		return
	}
	if p.parts[m.Index] == "" && m.Data != "" {
		p.have++
	}
	p.size += len(m.Data) - len(p.parts[m.Index])
	p.parts[m.Index] = m.Data
	if p.have < len(p.parts) {
		s.mu.Unlock()
		return
	}
	delete(s.photos, m.ID)
	s.mu.Unlock()

	b64 := strings.Join(p.parts, "")
	photo := appliance.Photo{ID: uuid.NewString(), Base64: b64}
	s.send(photoProcessing{Type: "photo_processing", TempID: m.ID, PhotoID: photo.ID})
	photo.Description, photo.Discarded = describePhoto(b64)
	if err := s.addPhoto(ctx, photo); err != nil {
		s.srv.d.Logger.Error("store a photo", "user", s.user, "err", err)
		return
	}
	s.send(photoDescribed{Type: "photo_described", PhotoID: photo.ID, Description: photo.Description, Discarded: photo.Discarded})
}

// addPhoto attaches the photo to the recording, starting one when none is
// open (a photo is worth a conversation even with nothing said).
func (s *session) addPhoto(ctx context.Context, photo appliance.Photo) error {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	if err := s.recordingLocked(ctx, s.now()); err != nil {
		return err
	}
	err := s.srv.d.Conversations.AddPhoto(ctx, s.user, s.convID(), photo)
	if appliance.ErrorCode(err) == appliance.ECONFLICT || appliance.ErrorCode(err) == appliance.ENOTFOUND {
		s.mu.Lock()
		s.convEnded = true // it ended under us: the photo begins the next recording
		s.mu.Unlock()
		if err := s.recordingLocked(ctx, s.now()); err != nil {
			return err
		}
		err = s.srv.d.Conversations.AddPhoto(ctx, s.user, s.convID(), photo)
	}
	return err
}

// convID is the open recording's id ("" before the first).
func (s *session) convID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conv == nil {
		return ""
	}
	return s.conv.ID
}

// describePhoto says what can be told of a photo without a vision model:
// its format and size. A photo that does not decode as an image is kept
// but marked discarded, as the reference marks photos it cannot use.
func describePhoto(b64 string) (description string, discarded bool) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(b64)
	}
	if err != nil || len(raw) == 0 {
		return "", true
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return "", true
	}
	return fmt.Sprintf("A %d×%d %s photo.", cfg.Width, cfg.Height, strings.ToUpper(format)), false
}
