package conversation

import (
	"context"
	"errors"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// restructureWait is how often Restructure looks again while the
// conversation's first processing still runs.
const restructureWait = time.Second

// Restructure processes again a conversation that late segments (see
// Insert) reached after it was processed, so that its title, overview and
// action items cover everything said. The caller runs it once, after the
// last late stretch is in, not once per stretch. A conversation still
// recording is left alone (it is processed when it ends, late segments
// included); one being processed is waited for. The memories of the first
// processing stay as they are: this is the structure step only, which
// runs again without adding a second set of them. A conversation the
// first pass kept is kept; one it discarded is judged again on the whole
// transcript. If processing fails, the conversation keeps its earlier
// structure and status.
func (s *Service) Restructure(ctx context.Context, userID, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), processTimeout)
	defer cancel()
	var before appliance.ConversationStatus
	for before == "" {
		conv, err := s.store.Conversation(ctx, userID, id)
		if err != nil {
			return err
		}
		switch conv.Status {
		case appliance.StatusInProgress:
			return nil // processed when it ends, late segments included
		case appliance.StatusProcessing:
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(restructureWait):
			}
			continue
		}
		err = s.store.SetConversationStatus(ctx, userID, id, []appliance.ConversationStatus{conv.Status}, appliance.StatusProcessing)
		switch {
		case err == nil:
			before = conv.Status
		case appliance.ErrorCode(err) != appliance.ECONFLICT:
			return err
		}
	}
	conv, err := s.store.Conversation(ctx, userID, id)
	if err != nil {
		return errors.Join(err, s.restore(ctx, userID, id, before))
	}
	s.publish(appliance.StreamEvent{Type: appliance.EventProcessingStarted, UserID: userID, ConversationID: id})
	if _, err := s.process(ctx, conv, appliance.ProcessOptions{ForceProcess: !conv.Discarded}); err != nil {
		return errors.Join(err, s.restore(ctx, userID, id, before))
	}
	if err := s.saveProcessed(ctx, conv, nil); err != nil {
		return errors.Join(err, s.restore(ctx, userID, id, before))
	}
	return nil
}

// restore puts back the status a conversation had before Restructure
// claimed it.
func (s *Service) restore(ctx context.Context, userID, id string, status appliance.ConversationStatus) error {
	return s.store.SetConversationStatus(ctx, userID, id, []appliance.ConversationStatus{appliance.StatusProcessing}, status)
}
