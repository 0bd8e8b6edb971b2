-- Why the CPU played an action for the seat's person ("away", "clock" or "left"), if it did.
ALTER TABLE actions ADD COLUMN stand_in TEXT;
