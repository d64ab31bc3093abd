-- Orders by status at a day's end: the day an order's current status counts from. A change books
-- its -1 / +1 on the later of the change's own day and this one: a status change is dated by the
-- latest event its record shows, which can fall before the day the previous status was counted
-- from (an order registered today whose payment and cancel are dated yesterday), and booking the
-- -1 there made a day's count negative. NULL for orders counted before it: their next change
-- books on its own day, as before.
ALTER TABLE summary_order_status ADD COLUMN day TEXT;
