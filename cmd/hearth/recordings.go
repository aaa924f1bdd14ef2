package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/recordings"
)

// recordingsDir is where conversations' audio is kept, under the data
// folder.
const recordingsDir = "recordings"

// newKeeper keeps conversations' audio as the configuration says; where
// this build cannot encode Opus it says once that no audio is kept.
func newKeeper(cfg appliance.Config, dataDir string, log *slog.Logger) *recordings.Keeper {
	ret, _ := appliance.ParseAudioRetention(cfg.AudioRetention) // Validate checked it
	k := &recordings.Keeper{
		Dir: filepath.Join(dataDir, recordingsDir), Retention: ret, Quota: int64(cfg.AudioQuotaMB) << 20,
		NewEncoder: audio.NewOpusEncoder, KeepAsSentBitrate: cfg.AudioKeepOpusKbps * 1000, Logger: log,
	}
	if err := k.Usable(); err != nil && !ret.Never {
		log.Warn("conversations' audio is not kept", "err", err)
	}
	return k
}

// keepFunc is the listen server's Keep, or nil when no audio is kept.
func keepFunc(k *recordings.Keeper) func(user, conv string, started time.Time, packets *audio.OpusPackets) (listen.AudioSink, error) {
	if k.Usable() != nil {
		return nil
	}
	return func(user, conv string, started time.Time, packets *audio.OpusPackets) (listen.AudioSink, error) {
		w, err := k.Create(user, conv, started, packets)
		if err != nil {
			return nil, err
		}
		return w, nil
	}
}

// audioFiles lists a conversation's kept recordings; a failure lists none
// (the conversation is still shown).
func audioFiles(k *recordings.Keeper, log *slog.Logger) func(user, conv string) appliance.AudioFiles {
	return func(user, conv string) appliance.AudioFiles {
		fs, err := k.Files(user, conv)
		if err != nil {
			log.Warn("list a conversation's audio", "conversation_id", conv, "err", err)
		}
		return fs
	}
}

// audioSweepEvery is how often recordings past the retention, and those
// of conversations deleted without their audio (a crash between the two),
// are removed.
const audioSweepEvery = time.Hour

// sweepAudio removes expired and orphaned recordings now and every
// audioSweepEvery until ctx ends.
func sweepAudio(ctx context.Context, k *recordings.Keeper, conversations interface {
	ConversationHead(ctx context.Context, userID, id string) (*appliance.Conversation, error)
}, log *slog.Logger) {
	alive := func(ctx context.Context, user, conv string) (bool, error) {
		_, err := conversations.ConversationHead(ctx, user, conv)
		if appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return false, nil
		}
		return err == nil, err
	}
	t := time.NewTicker(audioSweepEvery)
	defer t.Stop()
	for {
		if n, err := k.Sweep(ctx, alive); err != nil && ctx.Err() == nil {
			log.Warn("sweep kept audio", "err", err)
		} else if n > 0 {
			log.Info("kept audio removed (retention or deleted conversations)", "files", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
