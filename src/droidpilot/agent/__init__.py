"""The agent: Mobile-Agent's loop of seeing, deciding in words, grounding and acting."""
