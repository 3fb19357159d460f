"""``coinche-spec site DIR``: arguments in, the site written (the work is in ``site.build``)."""

from __future__ import annotations


def register(subparsers) -> None:
    p = subparsers.add_parser("site", help="write a static HTML site: rule set pages, the seeds compared, reports",
                              description="Write a static HTML site into DIR (an empty or new folder): every rule "
                                          "set's page, the comparison of the seed (and published) rule sets with "
                                          "simulated deals, and the implementation reports in "
                                          "docs/implementations/ when there are any, with a front page: the results board "
                                          "(implementations x rule sets) and every rule set by kind.")
    p.add_argument("dir", metavar="DIR", help="the folder to write (empty or new)")
    p.add_argument("--variant", action="append", default=[], metavar="FILE|ID",
                   help="a rule set to add to the site (your club's file, or an id), listed first with its rules "
                        "sheet and compared with the rule set it extends; repeat for several")
    p.add_argument("--force", action="store_true", help="write into DIR even if it is not empty (files of the "
                                                        "same name are replaced; nothing else is touched)")
    p.add_argument("--deals", type=int, default=500, help="deals simulated for the comparison (default 500)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="local processes playing the deals (default 1)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import UserError
    from ..compare.simulate import progress_bar
    from .build import SiteError, write_site

    if args.deals < 0 or args.jobs < 1:
        raise UserError("site: --deals must be 0 or more and --jobs 1 or more")
    from ..compare.simulate import MAX_DEALS
    if args.deals > MAX_DEALS:
        raise UserError(f"site: --deals {args.deals:,}: at most {MAX_DEALS:,} deals (docs/limits.md)")
    try:
        written = write_site(args.dir, args.force, args.deals, args.seed, args.jobs, progress_bar(),
                             variants=args.variant)
    except SiteError as exc:
        raise UserError(str(exc)) from None
    print(f"wrote {len(written)} files to {args.dir} (open {args.dir}/index.html)")
    return 0
