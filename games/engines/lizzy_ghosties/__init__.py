from games.engines.lizzy_ghosties.engine import LizzyGhosties

ENGINE = LizzyGhosties()

__all__ = ["ENGINE", "LizzyGhosties"]
