-- 013_outbox_reply_index.sql: the answers to a mail found by index: the reply-size bound of every mail, the hourly limits and prune looked them up by scanning the whole outbox.
CREATE INDEX outbox_reply ON outbox(in_reply_to);
