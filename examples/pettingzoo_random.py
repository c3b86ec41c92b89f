"""A random game of Kaboom in PettingZoo's AEC loop, drawn as text, with the
RGB picture of the final board written to a .npy file.

Run: python examples/pettingzoo_random.py [--seed 0] [--image final_board.npy]
Needs: pip install 'boomboard[pettingzoo]'
"""

from __future__ import annotations

import argparse

import numpy as np

from boomboard.pettingzoo import kaboom_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--image", default=None, help="save the final board's RGB array here (.npy)")
    args = parser.parse_args()

    env = kaboom_v0.env(render_mode="ansi", rows=4, cols=5)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            print(f"{agent} ends with reward {reward:+.0f}")
            action = None
        else:
            legal = np.flatnonzero(observation["action_mask"])  # the legal action ids
            action = int(rng.choice(legal))
            print(f"{agent} plays {env.unwrapped.boomboard_state.action_to_string(action)}")
        env.step(action)
    print(env.render())
    if args.image:
        picture = kaboom_v0.env(render_mode="rgb_array", rows=4, cols=5)
        picture.reset()
        for action in env.unwrapped.boomboard_state.history():
            picture.step(action)
        np.save(args.image, picture.render())
        print(f"RGB board ({picture.render().shape}) saved to {args.image}")


if __name__ == "__main__":
    main()
