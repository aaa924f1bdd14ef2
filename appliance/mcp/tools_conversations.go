package mcp

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

type conversationsResult struct {
	Conversations []view.ConversationSummary `json:"conversations"`
}

type getConversationsArgs struct {
	StartDate  string   `json:"start_date,omitempty" jsonschema:"Only conversations started on or after this day (YYYY-MM-DD, the user's time zone)"`
	EndDate    string   `json:"end_date,omitempty" jsonschema:"Only conversations started on or before this day (YYYY-MM-DD, the user's time zone)"`
	Categories []string `json:"categories,omitempty" jsonschema:"Only conversations of these categories; unknown values are ignored" schema:"enum=personal|education|health|finance|legal|philosophy|spiritual|science|entrepreneurship|parenting|romantic|travel|inspiration|technology|business|social|work|sports|politics|literature|history|architecture|music|weather|news|entertainment|psychology|real|design|family|economics|environment|other,dropinvalid"`
	Limit      int      `json:"limit,omitempty" jsonschema:"Maximum number of conversations to return" schema:"default=20,minimum=1,maximum=1000"`
	Offset     int      `json:"offset,omitempty" jsonschema:"Number of conversations to skip, for paging" schema:"default=0,minimum=0"`
}

func getConversationsTool(d *Deps) serverTool {
	return newTool(d, "get_conversations", "Get conversations",
		"List the user's conversations, newest first, with title, overview, category, action items and events. Locked conversations show only a preview.",
		ScopeConversationsRead, kindRead,
		func(ctx context.Context, c *call, a getConversationsArgs) (any, error) {
			cs, err := c.deps.Records.Conversations(ctx, c.userID, records.ConversationQuery{StartDate: a.StartDate,
				EndDate: a.EndDate, Categories: a.Categories, Limit: a.Limit, Offset: a.Offset})
			if err != nil {
				return nil, err
			}
			return conversationsResult{Conversations: cs}, nil
		})
}

type getConversationByIDArgs struct {
	ConversationID string `json:"conversation_id" jsonschema:"The conversation's id"`
}

func (a *getConversationByIDArgs) check() error {
	if a.ConversationID = strings.TrimSpace(a.ConversationID); a.ConversationID == "" {
		return rpcError(CodeGeneric, "conversation_id is required")
	}
	return nil
}

func getConversationByIDTool(d *Deps) serverTool {
	return newTool(d, "get_conversation_by_id", "Get conversation",
		"Get one conversation with its full transcript; speakers are named where known.",
		ScopeConversationsRead, kindRead,
		func(ctx context.Context, c *call, a getConversationByIDArgs) (any, error) {
			conv, err := c.deps.Records.Conversation(ctx, c.userID, a.ConversationID)
			if err != nil {
				return nil, err
			}
			return struct {
				Conversation *view.ConversationDetail `json:"conversation"`
			}{conv}, nil
		})
}

type searchConversationsArgs struct {
	Query     string `json:"query" jsonschema:"What to look for, in natural language"`
	StartDate string `json:"start_date,omitempty" jsonschema:"Only conversations started on or after this day (YYYY-MM-DD)"`
	EndDate   string `json:"end_date,omitempty" jsonschema:"Only conversations started on or before this day (YYYY-MM-DD)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"Maximum number of conversations to return" schema:"default=10,minimum=1,maximum=100"`
}

func (a *searchConversationsArgs) check() error {
	if a.Query = strings.TrimSpace(a.Query); a.Query == "" {
		return rpcError(CodeGeneric, "query is required")
	}
	return nil
}

func searchConversationsTool(d *Deps) serverTool {
	return newTool(d, "search_conversations", "Search conversations",
		"Find the user's conversations by what was said in them, their title and overview, and by meaning, best match first, optionally within dates. Conversations from the last few minutes may not be found yet.",
		ScopeConversationsRead, kindRead,
		func(ctx context.Context, c *call, a searchConversationsArgs) (any, error) {
			cs, err := c.deps.Records.SearchConversations(ctx, c.userID, a.Query, a.StartDate, a.EndDate, a.Limit)
			if err != nil {
				return nil, err
			}
			return conversationsResult{Conversations: cs}, nil
		})
}
